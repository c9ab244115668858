// Store.exportHTML (docs/html-view.md) on a real store, sessions written through the binding: one
// session's page, several in a directory with an index, the typed report against its JSON twin,
// and the refusals with their exact statuses and messages.
import Foundation
import Testing
import XSession

@Suite struct HTMLView {
    let source: Lineage
    let out: ScratchDirectory

    init() throws {
        source = try Lineage()
        out = try ScratchDirectory("xs-swift-html-out")
    }

    @Test func oneSessionIsOnePage() throws {
        let page = out.file("lexer.html")
        let text = try source.store.exportHTMLJSON([source.parent.id], to: page)
        let report = try text.decode(HTMLReport.self)
        try expectRoundTrip(report, text)
        let bytes = try #require(Files.read(page))
        #expect(String(decoding: bytes.prefix(15), as: UTF8.self) == "<!DOCTYPE html>")
        #expect(report.index == nil && report.pages.count == 1)
        let p = report.pages[0]
        #expect(p.path == page && p.sessionID == source.parent.id && p.bytes == Int64(bytes.count))
        #expect(p.entries == 2 && p.messages == 2 && p.branchPoints == 0 && p.branches == 0)
        // The typed call writes the same page again.
        #expect(try source.store.exportHTML([source.parent.path], to: page) == report)
    }

    @Test func severalSessionsAreADirectoryWithAnIndex() throws {
        let directory = out.file("pages")
        let (parent, child) = (source.parent.id, source.child.id)
        let report = try source.store.exportHTML([child, parent], to: directory)
        #expect(Files.list(directory).sorted() == ["\(child).html", "\(parent).html", "index.html"].sorted())
        #expect(report.pages.map(\.sessionID) == [child, parent])
        #expect(report.pages.map(\.path) == [directory + "/\(child).html", directory + "/\(parent).html"])
        #expect(report.pages.map(\.messages) == [3, 2])
        let index = try #require(report.index)
        #expect(index.path == directory + "/index.html")
        #expect(index.bytes == Int64(Files.read(index.path)!.count))
        try expectRoundTrip(report, try source.store.exportHTMLJSON([child, parent], to: directory))
    }

    @Test func emptyAndBadArgumentsAreRefused() throws {
        let store = source.store, id = source.parent.id, page = out.file("p.html")
        // "XS_EINVAL: <the library's message>" (XSessionError.description).
        func refusal(_ call: () throws -> Any) -> String? {
            (#expect(throws: XSessionError.self) { _ = try call() })?.description
        }
        #expect(refusal { try store.exportHTML([], to: page) } == "XS_EINVAL: n_ids is 0: name at least one session")
        #expect(refusal { try store.exportHTML([id], to: "") } == "XS_EINVAL: no output path")
        #expect(refusal { try store.exportHTML([id, id], to: out.path) } == "XS_EINVAL: \(id): session \(id) is named twice")
        #expect(refusal { try store.exportHTML([id], to: out.path) }
                == "XS_EINVAL: \(out.path) is a directory: one session's page needs a file name")
        #expect(refusal { try store.exportHTML(["zzzz"], to: page) } == #"XS_ENOTFOUND: zzzz: no session matches "zzzz""#)
        #expect(refusal { try store.exportHTML([id], to: out.file("missing/p.html")) }?.hasPrefix("XS_ENOTFOUND: ") == true)
        #expect(refusal { try store.exportHTML([""], to: page) }?.hasPrefix("XS_EINVAL: ") == true)
        #expect(refusal { try store.exportHTML(["a\0b"], to: page) }?.hasPrefix("XS_EINVAL: ") == true)  // the binding's
        #expect(Files.list(out.path).isEmpty)
        store.close()
        #expect(refusal { try store.exportHTML([id], to: page) }?.hasPrefix("XS_ECLOSED: ") == true)
    }

    @Test func theAsyncFormWritesThePage() async throws {
        let report = try await source.store.exportHTML([source.child.id], to: out.file("child.html"))
        #expect(report.pages.map(\.sessionID) == [source.child.id] && report.pages[0].messages == 3)
    }
}
