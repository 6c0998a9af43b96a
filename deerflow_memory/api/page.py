"""The memory page served at ``GET /memory/ui?user=&agent=``: one HTML document, no build step.

Plain HTML, a little CSS and JavaScript; no external assets (no CDN, fonts
or images), so it works offline and under a strict CSP of ``'self'`` plus the
inline script. The script calls the JSON routes next to it (relative URLs,
so the page works under any mount prefix) and builds every element with
``textContent``: stored text is never parsed as HTML. The only values put
into the HTML by the server (user, agent and tenant) are HTML-escaped
attribute values.

What it shows: the user context and history summaries; facts grouped by
category with confidence, source and date; edit, delete (two clicks) and add;
the superseded history; a search box using the product's retrieval
(``/search``). Edits send the revision the page loaded, so a stale page gets
the 409 message and reloads instead of overwriting newer memory.
"""

from __future__ import annotations

from html import escape

from deerflow_memory.models import FactCategory

__all__ = ["render_page"]

_CATEGORIES = "".join(f'<option value="{c.value}">{c.value}</option>' for c in FactCategory)

_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header{background:#1f3b57;color:#fff;padding:12px 20px;display:flex;gap:16px;align-items:center}
header h1{font-size:18px;margin:0;flex:1}
header input{width:10em}
main{max-width:960px;margin:0 auto;padding:12px 20px}
section{background:#fff;border:1px solid #d9dde3;border-radius:6px;margin:12px 0;padding:10px 14px}
h2{font-size:16px;margin:4px 0 8px}
h3{font-size:14px;margin:10px 0 4px;text-transform:capitalize;color:#375a7f}
table{border-collapse:collapse;width:100%;table-layout:fixed}
table.facts th:nth-child(2){width:6.5em}table.facts th:nth-child(3){width:11em}
table.facts th:nth-child(4){width:7em}table.facts th:nth-child(5){width:9.5em}
table.history th:nth-child(2){width:14em}table.history th:nth-child(3){width:7em}
table.history th:nth-child(4){width:13em}
td{overflow-wrap:anywhere}
td,th{text-align:left;padding:4px 6px;border-top:1px solid #eceff3;vertical-align:top}
th{font-weight:600;color:#556}
td.num{white-space:nowrap;width:4em}
td.meta{color:#667;font-size:13px}
td.actions{white-space:nowrap;width:1%}
button{font:inherit;padding:2px 8px;cursor:pointer}
button.danger{color:#a11}
#status{min-height:1.4em;color:#a11}
#status.ok{color:#276b2c}
dl{display:grid;grid-template-columns:11em 1fr;gap:2px 10px;margin:0}
dt{color:#556}
dd{margin:0;white-space:pre-wrap}
.empty{color:#889;font-style:italic}
form.row{display:flex;gap:6px;flex-wrap:wrap}
form.row input[name=content],form.row input[name=q]{flex:1;min-width:14em}
"""

_SCRIPT = r"""
(() => {
  const root = document.body.dataset;
  const user = root.user, agent = root.agent, tenant = root.tenant;
  const statusBox = document.getElementById("status");
  let revision = null;
  const qs = (extra) => {
    const p = new URLSearchParams(extra || {});
    if (agent) p.set("agent", agent);
    if (tenant) p.set("tenant", tenant);
    const s = p.toString();
    return s ? "?" + s : "";
  };
  const base = "users/" + encodeURIComponent(user);
  function say(text, ok) {
    statusBox.textContent = text;
    statusBox.className = ok ? "ok" : "";
  }
  async function call(method, path, body, extra) {
    const init = {method, headers: {"Accept": "application/json"}};
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path + qs(extra), init);
    const data = await response.json().catch(() => ({error: "bad answer from server"}));
    if (!response.ok) {
      const error = new Error(data.error || ("HTTP " + response.status));
      error.status = response.status;
      throw error;
    }
    return data;
  }
  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function button(text, cls, onClick) {
    const b = el("button", text, cls);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }
  function day(ts) { return ts ? String(ts).slice(0, 10) : ""; }
  function source(fact) {
    const kind = fact.sourceType || "inferred";
    return fact.source && fact.source !== kind ? kind + " · " + fact.source : kind;
  }
  async function guarded(action, done) {
    try {
      await action();
      if (done) say(done, true);
    } catch (error) {
      say(error.message);
      if (error.status === 409) await load();
      return;
    }
    await load();
  }
  function factRow(fact) {
    const row = el("tr");
    row.dataset.factId = fact.id;
    const text = el("td", fact.content, "content");
    row.append(text, el("td", Number(fact.confidence).toFixed(2), "num"),
      el("td", source(fact), "meta source"), el("td", day(fact.createdAt), "meta"));
    const actions = el("td", null, "actions");
    actions.append(
      button("Edit", "edit", () => {
        const input = el("input");
        input.name = "edit-content";
        input.value = fact.content;
        input.size = 40;
        text.replaceChildren(input);
        actions.replaceChildren(
          button("Save", "save", () => guarded(
            () => call("PATCH", base + "/facts/" + encodeURIComponent(fact.id),
                       {content: input.value, revision}), "Saved.")),
          button("Cancel", "cancel", () => load()));
        input.focus();
      }),
      button("Delete", "delete danger", (event) => {
        const b = event.currentTarget;
        if (b.dataset.armed !== "1") {
          b.dataset.armed = "1";
          b.textContent = "Really delete?";
          return;
        }
        guarded(() => call("DELETE", base + "/facts/" + encodeURIComponent(fact.id), undefined,
                           {revision: String(revision)}), "Deleted; kept in history.");
      }));
    row.append(actions);
    return row;
  }
  function renderFacts(facts) {
    const box = document.getElementById("facts");
    box.replaceChildren();
    if (!facts.length) { box.append(el("p", "No facts yet.", "empty")); return; }
    const groups = new Map();
    for (const fact of facts) {
      if (!groups.has(fact.category)) groups.set(fact.category, []);
      groups.get(fact.category).push(fact);
    }
    for (const [category, items] of [...groups].sort()) {
      items.sort((a, b) => b.confidence - a.confidence);
      const table = el("table", null, "facts");
      table.dataset.category = category;
      const head = el("tr");
      for (const h of ["fact", "confidence", "source", "date", ""]) head.append(el("th", h));
      table.append(head, ...items.map(factRow));
      box.append(el("h3", category), table);
    }
  }
  function renderSummaries(doc) {
    const box = document.getElementById("summaries");
    box.replaceChildren();
    const parts = [
      ["Work", doc.user && doc.user.workContext],
      ["Personal", doc.user && doc.user.personalContext],
      ["Top of mind", doc.user && doc.user.topOfMind],
      ["Recent months", doc.history && doc.history.recentMonths],
      ["Earlier", doc.history && doc.history.earlierContext],
      ["Long-term background", doc.history && doc.history.longTermBackground]];
    const list = el("dl");
    let any = false;
    for (const [title, section] of parts) {
      if (section && section.summary) {
        any = true;
        list.append(el("dt", title), el("dd", section.summary));
      }
    }
    box.append(any ? list : el("p", "No summaries yet.", "empty"));
  }
  function renderHistory(items, boxId) {
    const box = document.getElementById(boxId);
    box.replaceChildren();
    if (!items.length) { box.append(el("p", "Nothing here.", "empty")); return; }
    const table = el("table", null, "history");
    const head = el("tr");
    for (const h of ["fact", "told", "superseded", "why"]) head.append(el("th", h));
    table.append(head);
    for (const old of items) {
      const row = el("tr");
      const told = day(old.createdAt) + " · " + (old.source || "");
      row.append(el("td", old.content), el("td", told, "meta"),
        el("td", day(old.supersededAt), "meta"), el("td", old.reason || ""));
      table.append(row);
    }
    box.append(table);
  }
  async function load() {
    if (!user) { say("Pick a user above."); return; }
    try {
      const doc = await call("GET", base);
      revision = doc.revision;
      document.getElementById("revision").textContent = "revision " + doc.revision;
      renderSummaries(doc);
      renderFacts(doc.facts || []);
      renderHistory([...(doc.supersededFacts || [])].reverse(), "history");
      document.body.dataset.revision = String(doc.revision);
    } catch (error) {
      say(error.message);
    }
  }
  document.getElementById("add").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const body = {content: form.content.value, category: form.category.value,
                  confidence: Number(form.confidence.value), revision};
    guarded(async () => { await call("POST", base + "/facts", body); form.content.value = ""; },
            "Added.");
  });
  document.getElementById("search").addEventListener("submit", async (event) => {
    event.preventDefault();
    const q = event.currentTarget.q.value;
    const box = document.getElementById("results");
    try {
      const found = await call("GET", base + "/search", undefined, {q});
      box.replaceChildren();
      const list = el("ul");
      for (const f of found.facts) list.append(el("li", f.content + " (" + f.category + ")"));
      for (const f of found.supersededFacts)
        list.append(el("li", f.content + " (no longer current: "
                       + (f.reason || "superseded") + ")"));
      box.append(list.childElementCount ? list : el("p", "Nothing matches.", "empty"));
    } catch (error) { say(error.message); }
  });
  load();
})();
"""


def render_page(
    user_id: str, agent_name: str = "", tenant_id: str = "", *, max_fact_chars: int = 2000
) -> str:
    """The page's HTML for ``user_id`` (and ``agent_name``; ``""`` = default agent).

    ``tenant_id`` (``""`` = no tenant) is passed to every call as ``?tenant=``.
    The values must already be validated names; they are HTML-escaped anyway.
    ``max_fact_chars`` (the tenant's setting) bounds the add form's fact text.
    """
    user = escape(user_id, quote=True)
    agent = escape(agent_name, quote=True)
    tenant = escape(tenant_id, quote=True)
    title = f"Memory of {user}" + (f" ({agent})" if agent else "") if user else "Memory"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{_STYLE}</style></head>
<body data-user="{user}" data-agent="{agent}" data-tenant="{tenant}">
<header><h1>{title}</h1>
<form method="get" action="ui"><label>user <input name="user" value="{user}"></label>
<label>agent <input name="agent" value="{agent}" placeholder="default"></label>
<label>tenant <input name="tenant" value="{tenant}" placeholder="none"></label>
<button>Open</button></form><span id="revision"></span></header>
<main>
<div id="status" role="status" aria-live="polite"></div>
<section><h2>Add a fact</h2>
<form id="add" class="row"><input name="content" required maxlength="{int(max_fact_chars)}"
 placeholder="e.g. Prefers answers in Portuguese" aria-label="fact">
<select name="category" aria-label="category">{_CATEGORIES}</select>
<input name="confidence" type="number" min="0" max="1" step="0.05" value="1"
 aria-label="confidence" style="width:5em"><button>Add</button></form></section>
<section><h2>Facts</h2><div id="facts"></div></section>
<section><h2>Search</h2><form id="search" class="row"><input name="q" aria-label="search"
 placeholder="what do I know about…"><button>Search</button></form>
<div id="results"></div></section>
<section><h2>About the user</h2><div id="summaries"></div></section>
<section><h2>History (superseded facts)</h2><div id="history"></div></section>
</main>
<script>{_SCRIPT}</script>
</body></html>
"""
