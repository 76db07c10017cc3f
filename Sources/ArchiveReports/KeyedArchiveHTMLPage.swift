import Foundation
import KeyedArchive
import PropertyList

/// Writes a keyed archive as one self-contained HTML page: `inspect FILE --format html`.
///
/// The page embeds the archive's `inspect --format json` document in a
/// `<script type="application/json" id="archive-data">` element and draws it with a little
/// plain JavaScript (`HTMLReportAssets.graphScript`): the classes with their counts, and the
/// object graph as a collapsible tree. No network access, no external script or font.
public struct KeyedArchiveHTMLPage: Sendable {
    /// Limits for the nested documents the exporter labels.
    public var nested: NestedPayloadOptions

    public init(nested: NestedPayloadOptions = .init()) {
        self.nested = nested
    }

    /// Hands the page to `emit` in pieces: the archive's JSON is streamed, never held whole.
    ///
    /// - Parameters:
    ///   - archive: the decoded archive the page draws.
    ///   - title: what the page is about, usually the file's name.
    ///   - emit: called with each piece of the page, in order.
    /// - Throws: `PropertyListError` only if the JSON writer refuses a value (see
    ///   `KeyedArchiveJSONExporter.write`).
    public func write(_ archive: KeyedArchive, title: String, to emit: (UnsafeRawBufferPointer) -> Void) throws(PropertyListError) {
        func put(_ text: String) {
            var text = text
            text.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
        }
        let objects = archive.decodedObjects.count
        let classes = archive.classCounts.count
        put(HTMLReportAssets.pageStart(title: title, tool: "inspect", styles: [HTMLReportAssets.style]) + """
            <p>NSKeyedArchiver archive · \(objects) \(objects == 1 ? "object" : "objects") · \(classes) \(classes == 1 ? "class" : "classes") · written by archivist inspect</p>
            </header>
            <main class="inspect">
            <section><h2>Object graph</h2><div id="graph"></div></section>
            <section><h2>Classes</h2><table class="counts" id="classes"><tbody></tbody></table></section>
            </main>
            <script type="application/json" id="archive-data">
            """)
        let exporter = KeyedArchiveJSONExporter(nested: nested, prettyPrinted: false)
        var escaped = Data()
        try exporter.write(archive, chunkSize: 1 << 20) { chunk in
            escaped.removeAll(keepingCapacity: true)
            HTMLReportAssets.scriptSafeJSON(chunk, into: &escaped)
            escaped.withUnsafeBytes(emit)
        }
        put("""
            </script>
            <script>
            \(HTMLReportAssets.graphScript)
            (function () {
              const doc = JSON.parse(document.getElementById("archive-data").textContent);
              const body = document.querySelector("#classes tbody");
              for (const name of Object.keys(doc.classes || {})) {
                const tr = document.createElement("tr");
                const n = document.createElement("td"); n.className = "n"; n.textContent = doc.classes[name];
                const c = document.createElement("td"); c.textContent = name;
                tr.appendChild(n); tr.appendChild(c); body.appendChild(tr);
              }
              ArchiveGraph.render(doc, document.getElementById("graph"), "g-");
            })();
            </script>
            </body>
            </html>

            """)
    }

    /// The whole page.
    public func write(_ archive: KeyedArchive, title: String) throws(PropertyListError) -> Data {
        var out = Data()
        try write(archive, title: title) { out.append(contentsOf: $0) }
        return out
    }
}
