// Dialect: whose forms a session's lines take (docs/dialects.md). Both are always read; a session
// writes in one, so the agent that wrote its file reads it back.
internal import CXSession

public enum Dialect: String, Sendable, Hashable, CaseIterable, Codable {
    /// oh-my-pi 13: model "provider/id" + role, the header's title, attribution, blobs.
    case omp
    /// pi 0.73.1: model {provider, modelId}, titles as session_info entries, everything inline,
    /// UUIDv7 session ids; the omp-only entries are refused with `.dialect`.
    case pi

    /// XS_DIALECT_OMP or XS_DIALECT_PI.
    var cValue: UInt32 {
        switch self {
        case .omp: UInt32(XS_DIALECT_OMP)
        case .pi: UInt32(XS_DIALECT_PI)
        }
    }

    /// The dialect the library reported; nil for one newer than this binding.
    init?(cValue: UInt32) {
        guard let d = Dialect.allCases.first(where: { $0.cValue == cValue }) else { return nil }
        self = d
    }
}
