// Every case of tests/conformance/cases, replayed through the Swift API with exact bytes.
import Foundation
import Testing

/// The case files, sorted (one parameterised test case each).
func conformanceCaseFiles() -> [String] {
    Files.list(Repository.conformanceCases).filter { $0.hasSuffix(".json") }.sorted()
}

@Suite struct Conformance {
    @Test(arguments: conformanceCaseFiles())
    func replay(_ file: String) throws {
        try CaseRunner(file: Repository.conformanceCases + "/" + file).run()
    }

    /// Guards against a wrong directory silently replaying nothing.
    @Test func hasAtLeastThirtyCases() {
        #expect(conformanceCaseFiles().count >= 30)
    }
}
