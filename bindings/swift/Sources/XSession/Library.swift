// Library-wide facts: versions and status names. Both C functions may be called from any
// thread at any time, so these need no handle and no lock.
internal import CXSession

public enum XSessionLibrary {
    public struct Version: Sendable, Hashable, Comparable, CustomStringConvertible {
        public let major: Int
        public let minor: Int
        public let patch: Int

        public static func < (a: Version, b: Version) -> Bool {
            (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
        }

        public var description: String { "\(major).\(minor).\(patch)" }
    }

    /// The version of the libxsession loaded at run time (xs_version).
    public static var version: Version {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        xs_version(&major, &minor, &patch)
        return Version(major: Int(major), minor: Int(minor), patch: Int(patch))
    }

    /// The version of the xsession.h this binding was compiled against. A library with another
    /// major version (or, while the major is 0, another minor) may have a different ABI.
    public static let headerVersion = Version(
        major: Int(XS_VERSION_MAJOR), minor: Int(XS_VERSION_MINOR), patch: Int(XS_VERSION_PATCH))

    /// The library's English name of a status ("XS_ENOTFOUND: not found"; xs_status_str).
    public static func statusString(_ status: Int32) -> String {
        String(cString: xs_status_str(status))
    }
}
