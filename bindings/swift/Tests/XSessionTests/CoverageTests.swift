// The binding wraps the whole C API: every XS_API function of xsession.h is called somewhere
// in Sources/XSession (a new function in the header fails this test until it is wrapped).
import Foundation
import Testing

@Suite struct Coverage {
    @Test func everyHeaderFunctionIsWrapped() throws {
        let header = try String(contentsOfFile: Repository.header, encoding: .utf8)
        // "XS_API <type> <name>(": the name is the last identifier before the first '('.
        var functions: [String] = []
        for declaration in header.components(separatedBy: "XS_API ").dropFirst() {
            let head = declaration.prefix { $0 != "(" }
            // (The XS_API macro's own definitions are followed by __declspec/__attribute__.)
            if let name = head.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).last,
               name.hasPrefix("xs_") {
                functions.append(String(name))
            }
        }
        #expect(functions.count >= 60, "parsed \(functions.count) functions from \(Repository.header)")
        let sources = try Files.list(Repository.bindingSources).filter { $0.hasSuffix(".swift") }.map {
            try String(contentsOfFile: Repository.bindingSources + "/" + $0, encoding: .utf8)
        }.joined(separator: "\n")
        // Called, or passed as a function value: either way an identifier of the sources.
        let identifiers = Set(sources.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
        let unwrapped = functions.filter { !identifiers.contains($0) }
        #expect(unwrapped.isEmpty, "not wrapped: \(unwrapped)")
    }
}
