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

    /// The typed round trip saw every kind of output the cases produce, and skipped none but
    /// those holding a number beyond Double's range.
    @Test func everyOutputKindGoesThroughTheTypedAPI() throws {
        var kinds: Set<String> = []
        var (typed, outOfRange) = (0, 0)
        for file in conformanceCaseFiles() {
            let runner = try CaseRunner(file: Repository.conformanceCases + "/" + file)
            try runner.run()
            kinds.formUnion(runner.typedKinds)
            typed += runner.typedOutputs
            outOfRange += runner.outOfRangeOutputs
        }
        #expect(kinds == ["SessionContext", "SessionHeader", "Array<Entry>", "Entry", "Array<TreeNode>", "Array<Label>",
                          "Usage", "SessionInfo", "Array<Diagnostic>", "Array<SessionListing>", "ImportReport",
                          "ForeignListing", "KeyRecord", "Array<KeyEntry>", "CompactionPlan", "ResumeCheck",
                          "SessionStats", "FixStatsReport", "ArchiveReport", "PruneReport", "IndexReport",
                          "IndexVerifyReport", "Array<IndexedSession>", "Array<SearchHit>", "BundleExportReport",
                          "BundleImportReport"])
        #expect(typed >= 240)
        #expect(outOfRange == 2)  // 16_lone_surrogates_and_huge_numbers_are_valid: "huge":1e400, twice
    }

    /// Guards against a wrong directory silently replaying nothing.
    @Test func hasAtLeastThirtyCases() {
        #expect(conformanceCaseFiles().count >= 30)
    }
}
