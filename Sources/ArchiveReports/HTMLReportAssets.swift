import Foundation

/// The style sheet and scripts the HTML reports share (`inspect --format html` and
/// `sweep --format html`): pages are self-contained, so these are written into each page.
///
/// The graph script draws an archive from its `inspect --format json` document: a collapsible
/// tree from `$top`, children built when a node is first opened. Each object is drawn in full
/// once, at its first appearance in the tree's own order (as `inspect` prints it); every other
/// reference to it
/// links there (`→ #UID`), and a reference to an object on the way from the root to itself is
/// marked as a cycle (`↺ #UID`). Colors get a swatch, dates ISO 8601 and local time, data a
/// hex view with what it holds, PNG and JPEG data the image itself.
package enum HTMLReportAssets {
    /// `<` as `\u003c`, so that JSON (where `<` only appears inside strings) can sit inside a
    /// `<script>` element: no `</script>` or `<!--` can then end or change it.
    package static func scriptSafeJSON(_ bytes: UnsafeRawBufferPointer, into out: inout Data) {
        var start = 0
        for i in 0..<bytes.count where bytes[i] == 0x3C {
            if i > start { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<i])) }
            out.append(contentsOf: Array("\\u003c".utf8))
            start = i + 1
        }
        if bytes.count > start { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<bytes.count])) }
    }

    package static func scriptSafeJSON(_ data: Data) -> Data {
        var out = Data()
        out.reserveCapacity(data.count)
        data.withUnsafeBytes { scriptSafeJSON($0, into: &out) }
        return out
    }

    /// The start of a report page, through its `<h1>`: the head that allows no network access
    /// (inline style and scripts, images as data), `styles` one after the other, the page's
    /// title, written by `archivist TOOL`.
    package static func pageStart(title: String, tool: String, styles: [String]) -> String {
        let title = escaped(title)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>\(title) — archivist \(tool)</title>
            <style>
            \(styles.joined(separator: "\n"))
            </style>
            </head>
            <body>
            <header>
            <h1>\(title)</h1>

            """
    }

    /// Text escaped for HTML content and attribute values.
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    package static let style = """
    :root { --fg: #1d1d1f; --muted: #6e6e73; --line: #d2d2d7; --bg: #fff; --band: #f5f5f7; --accent: #0a60c2;
            --bad: #b3261e; --good: #1b7f3b; font-family: -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
    body { margin: 0; color: var(--fg); background: var(--bg); font-size: 14px; }
    header { padding: 16px 24px 8px; border-bottom: 1px solid var(--line); }
    header h1 { font-size: 20px; margin: 0 0 4px; }
    header p { margin: 0; color: var(--muted); }
    main { padding: 12px 24px 24px; }
    h2 { font-size: 16px; margin: 18px 0 8px; }
    code, .mono { font-family: "SF Mono", Menlo, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
    .cards { display: flex; flex-wrap: wrap; gap: 8px; }
    .card { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; min-width: 92px; background: var(--band); }
    .card b { display: block; font-size: 20px; }
    .card span { color: var(--muted); font-size: 12px; }
    table.counts { border-collapse: collapse; }
    table.counts td, table.counts th { padding: 2px 12px 2px 0; text-align: left; }
    table.counts td.n { text-align: right; font-variant-numeric: tabular-nums; }
    .bad { color: var(--bad); } .good { color: var(--good); } .muted { color: var(--muted); }
    a { color: var(--accent); }
    .tree { font-family: "SF Mono", Menlo, "DejaVu Sans Mono", monospace; font-size: 12.5px; line-height: 1.6; }
    .tree details { margin-left: 16px; }
    .tree details > summary { cursor: pointer; list-style: none; margin-left: -16px; }
    .tree details > summary::before { content: "▸"; display: inline-block; width: 16px; color: var(--muted); }
    .tree details[open] > summary::before { content: "▾"; }
    .tree .leaf { margin-left: 16px; }
    .tree .key { color: #7d3c98; }
    .tree .uid { color: var(--muted); }
    .tree .cls { color: #0b6e4f; font-weight: 600; }
    .tree .str { color: #a0410d; }
    .tree .num { color: #1f57a4; }
    .tree .ref { color: var(--accent); cursor: pointer; }
    .tree .cycle { color: var(--bad); font-weight: 600; }
    .tree .flash { background: #fff3b0; transition: background 1.5s; }
    .swatch { display: inline-block; width: 14px; height: 14px; border: 1px solid #888; border-radius: 3px;
              vertical-align: -2px; margin: 0 4px; }
    .hex { white-space: pre; color: #444; background: var(--band); padding: 4px 8px; margin: 2px 0 2px 16px;
           border-radius: 4px; display: inline-block; }
    img.inline { max-width: 256px; max-height: 256px; border: 1px solid var(--line); margin: 4px 0 4px 16px;
                 image-rendering: pixelated; display: block; min-width: 48px; }
    main.inspect { display: grid; grid-template-columns: minmax(0, 1fr) minmax(180px, 260px); gap: 24px; align-items: start; }
    """

    /// Defines `ArchiveGraph.render(doc, container, prefix)`: draws an `inspect --format json`
    /// document into `container`; `prefix` keeps element ids apart when a page holds several.
    package static let graphScript = #"""
    "use strict";
    const ArchiveGraph = (function () {
      const APPLE_EPOCH_MS = 978307200000;
      function el(tag, cls, text) {
        const e = document.createElement(tag);
        if (cls) e.className = cls;
        if (text !== undefined) e.textContent = text;
        return e;
      }
      function isRef(v) { return v !== null && typeof v === "object" && !Array.isArray(v) && typeof v.$ref === "number"; }
      function keyStep(key) {
        return /^[^.\[\]\/!#"\s\u0000-\u001f\u007f]+$/.test(key) ? "." + key : "[" + JSON.stringify(key) + "]";
      }
      function dateText(ms) {
        const d = new Date(ms);
        if (isNaN(d.getTime())) return String(ms);
        return d.toISOString().replace(".000Z", "Z") + "  (local: " + d.toLocaleString() + ")";
      }
      function base64Bytes(b64, limit) {
        let bin;
        try { bin = atob(b64); } catch (e) { return []; }
        const n = Math.min(bin.length, limit);
        const out = new Array(n);
        for (let i = 0; i < n; i++) out[i] = bin.charCodeAt(i);
        return out;
      }
      function base64Length(b64) {
        const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
        return Math.floor(b64.length / 4) * 3 - pad;
      }
      function hexDump(bytes, total) {
        const lines = [];
        for (let off = 0; off < bytes.length; off += 16) {
          const row = bytes.slice(off, off + 16);
          const hex = row.map(b => b.toString(16).padStart(2, "0")).join(" ");
          const ascii = row.map(b => (b >= 32 && b < 127) ? String.fromCharCode(b) : ".").join("");
          lines.push(off.toString(16).padStart(8, "0") + "  " + hex.padEnd(48) + "  " + ascii);
        }
        if (total > bytes.length) lines.push("… " + (total - bytes.length) + " more bytes");
        return lines.join("\n");
      }
      // The children of an object, as [step label, step text, value]: elements by index,
      // dictionary values by key, a URL's parts, fields of any other object.
      function children(obj, doc) {
        const v = obj.value;
        const out = [];
        const indexed = list => list.forEach((x, i) => out.push(["[" + i + "]", "[" + i + "]", x]));
        switch (obj.kind) {
          case "array": case "set": case "orderedSet": case "oldStyleArray": indexed(v || []); break;
          case "countedSet": indexed((v && v.members) || []); break;
          case "dictionary":
            (v || []).forEach((pair, i) => {
              const key = pair[0];
              let name = null;
              if (typeof key === "string") name = key;
              else if (isRef(key)) { const k = doc.byUID.get(key.$ref); if (k && k.kind === "string") name = k.value; }
              out.push(name !== null ? [name, keyStep(name), pair[1]] : ["[" + i + "]", "[" + i + "]", pair[1]]);
            });
            break;
          case "url": out.push(["base", ".base", v.base], ["relative", ".relative", v.relative]); break;
          case "attributedString":
            out.push(["string", ".string", v.string]);
            (v.attributes || []).forEach((a, i) => out.push(["attributes[" + i + "]", ".attributes[" + i + "]", a]));
            break;
          case "error": out.push(["userInfo", ".userInfo", v.userInfo]); break;
          case "object":
            for (const k of Object.keys(obj.fields || {})) out.push([k, keyStep(k), obj.fields[k]]);
            break;
          default: break;
        }
        return out;
      }
      // First appearance of each object, depth first from $top in the order the tree shows
      // children (as `inspect` prints it): uid -> {parent, step}. Iterative: graphs may be deep.
      function firstAppearances(doc) {
        const links = new Map();
        const stack = [];
        const tops = Object.keys(doc.top || {});
        for (let i = tops.length - 1; i >= 0; i--) stack.push([doc.top[tops[i]], -1, tops[i] === "root" ? "root" : "$top" + keyStep(tops[i])]);
        while (stack.length) {
          const [value, parent, step] = stack.pop();
          if (isRef(value)) {
            if (links.has(value.$ref) || !doc.byUID.has(value.$ref)) continue;
            links.set(value.$ref, { parent, step });
            const obj = doc.byUID.get(value.$ref);
            const kids = children(obj, doc);
            for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i][2], obj.uid, kids[i][1]]);
          } else if (Array.isArray(value)) {
            for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], parent, step + "[" + i + "]"]);
          }
        }
        return links;
      }
      function pathTo(uid, links) {
        const steps = [];
        let cur = uid, guard = 0;
        while (links.has(cur) && guard++ < 100000) { const l = links.get(cur); steps.push(l.step); cur = l.parent; }
        return steps.reverse().join("");
      }
      function render(doc, container, prefix) {
        doc.byUID = new Map((doc.objects || []).map(o => [o.uid, o]));
        const links = firstAppearances(doc);
        const nodes = new Map();   // uid -> its <details>, once drawn
        function objectLine(obj) {
          const line = el("span");
          line.appendChild(el("span", "uid", "#" + obj.uid + " "));
          line.appendChild(el("span", "cls", obj.readableClass));
          if (obj.kind === "color" && obj.value && typeof obj.value.red === "number") {
            const c = obj.value, ch = x => Math.round(Math.max(0, Math.min(1, x)) * 255);
            const sw = el("span", "swatch");
            sw.dataset.rgb = ch(c.red) + "," + ch(c.green) + "," + ch(c.blue);
            sw.style.backgroundColor = "rgba(" + ch(c.red) + ", " + ch(c.green) + ", " + ch(c.blue) + ", " + (typeof c.alpha === "number" ? c.alpha : 1) + ")";
            sw.title = "rgba(" + [c.red, c.green, c.blue, c.alpha].join(", ") + ") " + (c.space || "");
            line.appendChild(sw);
          }
          let text = obj.summary;
          if (obj.kind === "date" && obj.iso8601) text = dateText(obj.iso8601);
          if (obj.kind === "string") text = JSON.stringify(obj.value);
          if (text) line.appendChild(el("span", obj.kind === "string" ? "str" : "num", " " + text));
          return line;
        }
        function dataBody(target, b64, nestedKind) {
          const total = base64Length(b64);
          if (nestedKind === "png" || nestedKind === "jpeg") {
            const img = el("img", "inline");
            img.alt = nestedKind.toUpperCase() + " image";
            img.src = "data:image/" + nestedKind + ";base64," + b64;
            target.appendChild(img);
          }
          target.appendChild(el("div", "hex", hexDump(base64Bytes(b64, 256), total)));
        }
        // Draws `value` under `parent` (a <details> body or the container), labelled `label`.
        function drawValue(parent, label, value, ownerUID, step, ancestors) {
          const labelNode = () => { const s = el("span", "key", label); return s; };
          if (isRef(value)) {
            const uid = value.$ref;
            const obj = doc.byUID.get(uid);
            const row = el("div", "leaf");
            if (label !== null) { row.appendChild(labelNode()); row.appendChild(document.createTextNode(" = ")); }
            if (!obj) { row.appendChild(el("span", "muted", "#" + uid + " (not decoded)")); parent.appendChild(row); return; }
            if (ancestors.has(uid)) {
              const c = el("span", "cycle", "↺ #" + uid + " " + obj.readableClass + " (cycle)");
              c.title = "refers back to " + pathTo(uid, links);
              row.appendChild(c); parent.appendChild(row); return;
            }
            const link = links.get(uid);
            if (!link || link.parent !== ownerUID || link.step !== step) {
              const a = el("span", "ref", "→ #" + uid + " " + obj.readableClass);
              a.title = "shared: first at " + pathTo(uid, links);
              a.dataset.target = uid;
              a.addEventListener("click", () => reveal(uid));
              row.appendChild(a);
              parent.appendChild(row); return;
            }
            drawObject(parent, label, obj, ancestors);
            return;
          }
          const row = el("div", "leaf");
          if (label !== null) { row.appendChild(labelNode()); row.appendChild(document.createTextNode(" = ")); }
          if (value === null) { row.appendChild(el("span", "muted", "nil")); parent.appendChild(row); return; }
          if (Array.isArray(value)) {
            const d = el("details");
            const s = el("summary");
            if (label !== null) { s.appendChild(labelNode()); s.appendChild(document.createTextNode(" = ")); }
            s.appendChild(el("span", "muted", "[" + value.length + " values]"));
            d.appendChild(s);
            // Drawn at once (closed): a first appearance inside must exist for reveal() to open.
            const body = el("div");
            d.appendChild(body);
            d.ensureFilled = () => {};
            value.forEach((x, i) => drawValue(body, "[" + i + "]", x, ownerUID, step + "[" + i + "]", ancestors));
            parent.appendChild(d); return;
          }
          if (typeof value === "string") row.appendChild(el("span", "str", JSON.stringify(value)));
          else if (typeof value === "number" || typeof value === "boolean") row.appendChild(el("span", "num", String(value)));
          else if ("$data" in value) {
            row.appendChild(el("span", "num", base64Length(value.$data) + " bytes"));
            dataBody(row, value.$data, null);
          } else if ("$date" in value) row.appendChild(el("span", "num", dateText(APPLE_EPOCH_MS + value.$date * 1000)));
          else if ("$real" in value) row.appendChild(el("span", "num", value.$real));
          else if ("$uid" in value) row.appendChild(el("span", "num", "UID " + value.$uid));
          else row.appendChild(el("span", "mono", JSON.stringify(value).slice(0, 400)));
          parent.appendChild(row);
        }
        function lazily(details, fill) {
          let filled = false;
          const body = el("div");
          details.appendChild(body);
          const ensure = () => { if (!filled) { filled = true; fill(body); } };
          details.addEventListener("toggle", () => { if (details.open) ensure(); });
          details.ensureFilled = ensure;
        }
        function drawObject(parent, label, obj, ancestors) {
          const d = el("details");
          d.id = prefix + "obj-" + obj.uid;
          d.dataset.uid = obj.uid;
          const s = el("summary");
          if (label !== null) { s.appendChild(el("span", "key", label)); s.appendChild(document.createTextNode(" = ")); }
          s.appendChild(objectLine(obj));
          d.appendChild(s);
          nodes.set(obj.uid, d);
          const inner = new Set(ancestors); inner.add(obj.uid);
          lazily(d, body => {
            if (obj.kind === "data" && obj.value && obj.value.$data !== undefined) {
              if (obj.nested) body.appendChild(el("div", "leaf muted", "holds: " + obj.nested));
              dataBody(body, obj.value.$data, obj.nestedKind);
            }
            if (obj.kind === "date" && obj.iso8601) body.appendChild(el("div", "leaf num", dateText(obj.iso8601)));
            if (obj.kind === "color" && obj.value) body.appendChild(el("div", "leaf mono", JSON.stringify(obj.value)));
            if (obj.kind === "url" && obj.value && obj.value.absolute) body.appendChild(el("div", "leaf str", obj.value.absolute));
            for (const [name, step, value] of children(obj, doc)) drawValue(body, name, value, obj.uid, step, inner);
            if (obj.kind !== "object" && obj.fields && Object.keys(obj.fields).length) {
              const f = el("details");
              const fs = el("summary", "muted", "raw fields (" + Object.keys(obj.fields).length + ")");
              f.appendChild(fs);
              lazily(f, fb => { for (const k of Object.keys(obj.fields)) drawValue(fb, k, obj.fields[k], -2, "", inner); });
              body.appendChild(f);
            }
            if (obj.kind === "object" && (!obj.fields || !Object.keys(obj.fields).length)) body.appendChild(el("div", "leaf muted", "(no fields)"));
          });
          parent.appendChild(d);
          return d;
        }
        // Opens the way from the root to an object's first appearance and shows it.
        function reveal(uid) {
          const chain = [];
          let cur = uid, guard = 0;
          while (cur >= 0 && links.has(cur) && guard++ < 100000) { chain.push(cur); cur = links.get(cur).parent; }
          chain.reverse();
          for (const id of chain) {
            const node = nodes.get(id);
            if (!node) continue;
            node.ensureFilled(); node.open = true;
            let p = node.parentElement;
            while (p && p !== container) { if (p.tagName === "DETAILS") { p.ensureFilled && p.ensureFilled(); p.open = true; } p = p.parentElement; }
          }
          const target = nodes.get(uid);
          if (target) {
            target.scrollIntoView({ block: "center" });
            const summary = target.querySelector("summary");
            summary.classList.add("flash");
            setTimeout(() => summary.classList.remove("flash"), 1500);
          }
        }
        container.classList.add("tree");
        const topKeys = Object.keys(doc.top || {});
        for (const key of topKeys) drawValue(container, key === "root" ? "root" : "$top" + keyStep(key), doc.top[key], -1, key === "root" ? "root" : "$top" + keyStep(key), new Set());
        const first = container.querySelector("details");
        if (first) { first.ensureFilled(); first.open = true; }
        return { reveal };
      }
      return { render };
    })();
    """#
}
