import Foundation
@_spi(Writers) import PropertyList
import ArchiveReports
import KeyedArchive

/// The sweep report as one self-contained HTML page: the summary (counts by kind, verdict and
/// class), a sortable, filterable table of every item, and for a selected item its record, its
/// attributes (databases) or its object graph (archives).
///
/// The data is JSON inside `<script type="application/json">` elements: items in chunks of
/// 1,000 (`class="sweep-items"`), each archive's graph in its own element (`id="graph-N"`,
/// parsed only when the item is opened), the summary last (`id="sweep-summary"`). A little
/// plain JavaScript draws the page; the table draws only the rows in view, so 100,000 items
/// stay responsive. Written as items arrive: only the current chunk of records is held.
struct SweepHTMLPage {
    let title: String
    private var pending: [Data] = []
    private var count = 0
    static let chunkSize = 1_000

    init(title: String) {
        self.title = title
    }

    func begin() -> Data {
        Data((HTMLReportAssets.pageStart(title: title, tool: "sweep", styles: [HTMLReportAssets.style, Self.style]) + """
            <p id="overview">written by archivist sweep</p>
            </header>
            <main>
            <section id="summary">
            <div class="cards" id="kind-cards"></div>
            <div class="columns">
            <div><h2>Verdicts of the allow-list</h2><table class="counts" id="verdicts"><tbody></tbody></table></div>
            <div><h2>Classes <span class="muted">(archives holding each; click one to filter)</span></h2><table class="counts" id="classes"><tbody></tbody></table></div>
            </div>
            </section>
            <div class="workspace">
            <section id="items">
            <div class="filters">
            <input id="filter-text" type="search" placeholder="path contains…" size="26">
            <select id="filter-kind"><option value="">every kind</option></select>
            <input id="filter-class" type="search" list="class-names" placeholder="class…" size="18">
            <datalist id="class-names"></datalist>
            <select id="filter-verdict"><option value="">any verdict</option><option value="accepted">accepted</option><option value="refused">refused</option></select>
            <label><input id="filter-errors" type="checkbox"> errors only</label>
            <span id="shown" class="muted"></span>
            </div>
            <div class="grid-head" id="grid-head"></div>
            <div id="rows" tabindex="0"><div id="spacer"></div></div>
            </section>
            <section id="detail" hidden>
            <h2 id="detail-title"></h2>
            <table class="counts" id="detail-fields"><tbody></tbody></table>
            <div id="detail-more"></div>
            </section>
            </div>
            </main>

            """).utf8)
    }

    mutating func item(_ item: SweepItem) -> Data {
        var out = Data()
        var value = item.jsonValue
        if let graph = item.graph, case .dictionary(var record) = value {
            out += Data("<script type=\"application/json\" id=\"graph-\(count)\">".utf8)
            out += HTMLReportAssets.scriptSafeJSON(graph)
            out += Data("</script>\n".utf8)
            record.append(key: "graph", value: .integer(PropertyListInteger(count)))
            value = .dictionary(record)
        }
        count += 1
        pending.append(HTMLReportAssets.scriptSafeJSON(SweepJSON.write(value)))
        if pending.count == Self.chunkSize { out += flush() }
        return out
    }

    private mutating func flush() -> Data {
        guard !pending.isEmpty else { return Data() }
        var out = Data("<script type=\"application/json\" class=\"sweep-items\">[\n".utf8)
        for (i, record) in pending.enumerated() {
            if i > 0 { out += Data(",\n".utf8) }
            out += record
        }
        out += Data("\n]</script>\n".utf8)
        pending.removeAll(keepingCapacity: true)
        return out
    }

    mutating func end(_ summary: SweepSummary) -> Data {
        var out = flush()
        out += Data("<script type=\"application/json\" id=\"sweep-summary\">".utf8)
        out += HTMLReportAssets.scriptSafeJSON(SweepJSON.write(summary.jsonValue))
        out += Data("</script>\n<script>\n".utf8)
        out += Data(HTMLReportAssets.graphScript.utf8)
        out += Data(Self.script.utf8)
        out += Data("\n</script>\n</body>\n</html>\n".utf8)
        return out
    }

    static let style = """
    #summary { display: flex; flex-wrap: wrap; gap: 8px 40px; align-items: flex-start; }
    #summary h2 { margin-top: 0; }
    .columns { display: flex; flex-wrap: wrap; gap: 8px 40px; }
    #classes tr.more td { padding-top: 4px; }
    .workspace { display: grid; grid-template-columns: minmax(0, 1fr); gap: 16px; margin-top: 16px; }
    .workspace.with-detail { grid-template-columns: minmax(0, 3fr) minmax(340px, 2fr); }
    .filters { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 8px; }
    .filters input, .filters select { font: inherit; padding: 3px 6px; }
    .grid-head, .row { display: grid; grid-template-columns: minmax(180px, 5fr) 104px 62px 66px minmax(90px, 2fr) 70px minmax(90px, 3fr);
                       column-gap: 8px; padding: 0 8px; }
    .grid-head { font-weight: 600; border-bottom: 1px solid var(--line); background: var(--band); padding-top: 4px; padding-bottom: 4px; }
    .grid-head span { cursor: pointer; user-select: none; white-space: nowrap; }
    .grid-head span.sorted::after { content: " ▴"; } .grid-head span.sorted.desc::after { content: " ▾"; }
    #rows { position: relative; height: 62vh; min-height: 240px; overflow: auto; border-bottom: 1px solid var(--line); }
    .row { position: absolute; left: 0; right: 0; height: 24px; line-height: 24px; cursor: pointer; border-bottom: 1px solid #eee; }
    .row:hover { background: #eef4fd; } .row.selected { background: #dbe8fb; }
    .row span { overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
    .row .c-size { text-align: right; font-variant-numeric: tabular-nums; }
    .row .c-path { font-family: "SF Mono", Menlo, "DejaVu Sans Mono", monospace; font-size: 12px; direction: rtl; text-align: left; }
    .kind-unreadable { color: var(--bad); }
    .verdict-refused { color: var(--bad); font-weight: 600; } .verdict-accepted { color: var(--good); }
    #detail { border: 1px solid var(--line); border-radius: 8px; padding: 0 12px 12px; max-height: calc(62vh + 70px); overflow: auto; }
    #detail-title { font-family: "SF Mono", Menlo, "DejaVu Sans Mono", monospace; font-size: 13px; word-break: break-all; }
    #detail-fields th { vertical-align: top; }
    table.attrs { border-collapse: collapse; margin: 8px 0; }
    table.attrs th, table.attrs td { border: 1px solid var(--line); padding: 2px 8px; text-align: left; vertical-align: top; }
    """

    static let script = #"""
    (function () {
      const items = [];
      document.querySelectorAll("script.sweep-items").forEach(s => { for (const it of JSON.parse(s.textContent)) items.push(it); });
      const summary = JSON.parse(document.getElementById("sweep-summary").textContent);
      const $ = id => document.getElementById(id);
      const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
      const fmtNumber = n => Number(n).toLocaleString("en-US");
      function fmtBytes(n) {
        if (n < 1000) return n + " B";
        const units = ["kB", "MB", "GB", "TB"]; let v = n / 1000, u = 0;
        while (v >= 1000 && u < units.length - 1) { v /= 1000; u++; }
        return (v < 10 ? v.toFixed(1) : v.toFixed(0)) + " " + units[u];
      }
      // Classes an item holds: an archive's own, or a database's attributes'.
      function classesOf(it) {
        if (it.classes) return Object.keys(it.classes);
        if (it.attributes) { const s = new Set(); for (const a of it.attributes) for (const c of Object.keys(a.classes || {})) s.add(c); return [...s]; }
        return [];
      }
      function verdictOf(it) {
        if (it.verdict) return it.verdict;
        if (it.attributes) { const r = it.attributes.reduce((n, a) => n + a.refused, 0), a = it.attributes.reduce((n, x) => n + x.accepted, 0);
          return r > 0 ? "refused" : a > 0 ? "accepted" : ""; }
        return "";
      }
      items.forEach((it, i) => { it._i = i; it._classes = classesOf(it); it._verdict = verdictOf(it); it._lower = it.path.toLowerCase(); });

      // Summary.
      $("overview").textContent = fmtNumber(summary.items) + " items in " + fmtNumber(summary.examined) + " files and members (" +
        fmtBytes(summary.examinedBytes) + ") · " + summary.errors + " unreadable · " + summary.containers + " containers · " +
        summary.seconds + " s · written by archivist sweep";
      for (const kind of Object.keys(summary.byKind)) {
        const c = el("div", "card"); c.dataset.kind = kind;
        c.appendChild(el("b", kind === "unreadable" && summary.byKind[kind] ? "bad" : "", fmtNumber(summary.byKind[kind])));
        c.appendChild(el("span", "", kind)); $("kind-cards").appendChild(c);
        const o = el("option", "", kind); o.value = kind; $("filter-kind").appendChild(o);
      }
      for (const v of Object.keys(summary.byVerdict)) {
        const tr = el("tr"); tr.appendChild(el("td", "n", fmtNumber(summary.byVerdict[v]))); tr.appendChild(el("td", v === "refused" ? "bad" : "good", v));
        $("verdicts").tBodies[0].appendChild(tr);
      }
      const classNames = Object.keys(summary.byClass);
      function listClasses(limit) {
        const body = $("classes").tBodies[0]; body.textContent = "";
        classNames.slice(0, limit).forEach(name => {
          const tr = el("tr"); tr.appendChild(el("td", "n", fmtNumber(summary.byClass[name])));
          const td = el("td"); const a = el("a", "", name); a.href = "#"; a.dataset.className = name;
          a.addEventListener("click", e => { e.preventDefault(); $("filter-class").value = name; update(); });
          td.appendChild(a); tr.appendChild(td); body.appendChild(tr);
        });
        if (classNames.length > limit) {
          const tr = el("tr", "more"); tr.appendChild(el("td"));
          const td = el("td"); const a = el("a", "", "show all " + fmtNumber(classNames.length) + " classes"); a.href = "#";
          a.addEventListener("click", e => { e.preventDefault(); listClasses(classNames.length); });
          td.appendChild(a); tr.appendChild(td); body.appendChild(tr);
        }
      }
      listClasses(8);
      for (const name of classNames) { const o = el("option"); o.value = name; $("class-names").appendChild(o); }

      // The table: sortable columns, filters, and only the rows in view drawn.
      const columns = [["path", "path"], ["kind", "kind"], ["format", "format"], ["size", "size"], ["classes", "classes"], ["verdict", "verdict"], ["notes", "notes"]];
      const sortKeys = {
        path: it => it.path, kind: it => it.kind, format: it => it.format || "", size: it => it.size,
        classes: it => it._classes.join(", "), verdict: it => it._verdict, notes: it => it.error || it.summary || ""
      };
      let sortColumn = null, descending = false, view = items.slice(), selected = -1;
      // Numbers inside names sort as numbers: Z_PK=2 before Z_PK=10.
      const collator = new Intl.Collator("en", { numeric: true });
      for (const [key, label] of columns) {
        const s = el("span", "", label); s.dataset.column = key;
        s.addEventListener("click", () => { descending = sortColumn === key ? !descending : false; sortColumn = key; update(); });
        $("grid-head").appendChild(s);
      }
      const ROW = 24;
      const rows = $("rows"), spacer = $("spacer");
      function update() {
        const text = $("filter-text").value.toLowerCase(), kind = $("filter-kind").value, cls = $("filter-class").value.trim();
        const verdict = $("filter-verdict").value, errorsOnly = $("filter-errors").checked;
        view = items.filter(it => (!text || it._lower.includes(text)) && (!kind || it.kind === kind) &&
          (!cls || it._classes.includes(cls)) && (!verdict || it._verdict === verdict) && (!errorsOnly || it.error));
        if (sortColumn) {
          const key = sortKeys[sortColumn], sign = descending ? -1 : 1;
          const compare = (x, y) => typeof x === "number" ? x - y : collator.compare(x, y);
          view.sort((a, b) => (compare(key(a), key(b)) || a._i - b._i) * sign);
        }
        for (const s of $("grid-head").children) { s.classList.toggle("sorted", s.dataset.column === sortColumn); s.classList.toggle("desc", descending); }
        $("shown").textContent = fmtNumber(view.length) + " of " + fmtNumber(items.length) + " items";
        spacer.style.height = (view.length * ROW) + "px";
        rows.scrollTop = 0;
        draw(true);
      }
      let drawnFrom = -1, drawnTo = -1;
      function draw(force) {
        const from = Math.max(0, Math.floor(rows.scrollTop / ROW) - 10);
        const to = Math.min(view.length, from + Math.ceil(rows.clientHeight / ROW) + 20);
        if (!force && from === drawnFrom && to === drawnTo) return;
        drawnFrom = from; drawnTo = to;
        for (const r of [...rows.querySelectorAll(".row")]) r.remove();
        const fragment = document.createDocumentFragment();
        for (let i = from; i < to; i++) {
          const it = view[i];
          const r = el("div", "row" + (it._i === selected ? " selected" : ""));
          r.setAttribute("role", "row");
          r.style.top = (i * ROW) + "px";
          r.dataset.index = it._i; r.dataset.path = it.path;
          const p = el("span", "c-path"); p.appendChild(el("bdi", "", it.path)); p.title = it.path; r.appendChild(p);
          r.appendChild(el("span", "c-kind kind-" + it.kind, it.kind));
          r.appendChild(el("span", "c-format", it.format || ""));
          r.appendChild(el("span", "c-size", fmtBytes(it.size)));
          const c = el("span", "c-classes", it._classes.join(", ")); c.title = c.textContent; r.appendChild(c);
          r.appendChild(el("span", "c-verdict verdict-" + it._verdict, it._verdict));
          const n = el("span", "c-notes" + (it.error ? " bad" : ""), it.error || it.summary || ""); n.title = n.textContent; r.appendChild(n);
          r.addEventListener("click", () => open(it._i));
          fragment.appendChild(r);
        }
        rows.appendChild(fragment);
      }
      rows.addEventListener("scroll", () => draw(false));
      window.addEventListener("resize", () => draw(true));
      for (const id of ["filter-text", "filter-class"]) $(id).addEventListener("input", update);
      for (const id of ["filter-kind", "filter-verdict", "filter-errors"]) $(id).addEventListener("change", update);

      // One item in detail: its record, its attributes, its object graph.
      function open(index) {
        selected = index; draw(true);
        const it = items[index];
        $("detail").hidden = false;
        document.querySelector(".workspace").classList.add("with-detail");
        $("detail-title").textContent = it.path;
        const body = $("detail-fields").tBodies[0]; body.textContent = "";
        const add = (k, v, cls) => { const tr = el("tr"); tr.appendChild(el("th", "", k)); tr.appendChild(el("td", cls || "", v)); body.appendChild(tr); };
        add("kind", it.kind); if (it.format) add("format", it.format); add("size", fmtNumber(it.size) + " bytes");
        if (it.summary) add("summary", it.summary);
        if (it.verdict) add("verdict", it.verdict + (it.refusedClasses && it.refusedClasses.length ? " (refused: " + it.refusedClasses.join(", ") + ")" : ""), it.verdict === "refused" ? "bad" : "good");
        if (it.classes) add("classes", Object.keys(it.classes).map(k => k + " ×" + it.classes[k]).join(", "));
        if (it.error) add("error", it.error, "bad");
        if (it.graphOmitted) add("graph", "not drawn: " + it.graphOmitted, "muted");
        const more = $("detail-more"); more.textContent = "";
        if (it.attributes && it.attributes.length) {
          const t = el("table", "attrs"); const head = el("tr");
          for (const h of ["attribute", "rows", "kinds", "classes", "accepted", "refused", "to allow"]) head.appendChild(el("th", "", h));
          t.appendChild(head);
          for (const a of it.attributes) {
            const tr = el("tr");
            const counts = o => Object.keys(o).map(k => k + " " + o[k]).join(", ");
            for (const v of [a.attribute, fmtNumber(a.rows), counts(a.kinds), counts(a.classes), a.accepted, a.refused, a.suggestedAdditions.join(", ")]) tr.appendChild(el("td", "", String(v)));
            t.appendChild(tr);
          }
          more.appendChild(el("h2", "", "Attributes")); more.appendChild(t);
        }
        if (it.graph !== undefined) {
          const source = $("graph-" + it.graph);
          if (source) {
            more.appendChild(el("h2", "", "Object graph"));
            const g = el("div"); g.id = "detail-graph"; more.appendChild(g);
            ArchiveGraph.render(JSON.parse(source.textContent), g, "d" + index + "-");
          }
        }
        $("detail").scrollTop = 0;
      }
      update();
      window.archivistSweep = { items, summary, open, update };
    })();
    """#
}
