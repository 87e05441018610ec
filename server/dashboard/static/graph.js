/* Relations graph: one step around an object, drawn by Cytoscape.js (vendored). */
"use strict";
(async () => {
  const { el, api, getJson, params, url, errorBox, configSelect, outcomeBadge, hitsOf, nameOf } = V8;
  const MIN_LIMIT = 15, MAX_LIMIT = 400;
  const PALETTE = {
    Catalog: "#2f7ed8", Document: "#d9822b", Enum: "#8e6bbf", InformationRegister: "#2a9d8f",
    AccumulationRegister: "#c0392b", AccountingRegister: "#a93226", CalculationRegister: "#922b21",
    ChartOfCharacteristicTypes: "#c2185b", ChartOfAccounts: "#ad1457", ChartOfCalculationTypes: "#880e4f",
    ExchangePlan: "#6d4c41", BusinessProcess: "#b7950b", Task: "#d4ac0d", CommonModule: "#5d6d7e",
    Constant: "#af7ac5", DocumentJournal: "#dc7633", Report: "#45b39d", DataProcessor: "#5499c7",
    DefinedType: "#a04000", Subsystem: "#839192", Role: "#6c3483", SessionParameter: "#b03a2e",
  };
  const colour = (kind) => PALETTE[kind] || `hsl(${[...String(kind)].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7)}, 45%, 50%)`;

  const p = params();
  let name = (p.get("name") || "").trim().slice(0, 300);
  let config = p.get("config") || "";
  const askedLimit = parseInt(p.get("limit") || "40", 10);
  const limit = Math.min(MAX_LIMIT, Math.max(MIN_LIMIT, Number.isFinite(askedLimit) ? askedLimit : 40));
  const weak = p.get("weak") === "1";
  const facts = await getJson("/ui/bundle");
  const configs = facts.configs || [];
  if (!config && configs.length) config = configs[0];
  document.getElementById("config-slot").replaceChildren(configSelect(configs, config, { id: "config" }));
  document.getElementById("name").value = name;
  document.getElementById("limit").value = String(limit);
  document.getElementById("weak").checked = weak;
  const status = document.getElementById("graph-status");
  const box = document.getElementById("graph");
  const wrap = document.querySelector(".graph-wrap");
  const hint = document.getElementById("graph-hint");
  const tip = document.getElementById("edge-tip");
  const notices = [];
  if (p.get("limit") && limit !== askedLimit) notices.push(`лимит ${p.get("limit")} вне диапазона ${MIN_LIMIT}…${MAX_LIMIT}: взят ${limit}`);
  if (!name) {
    status.textContent = "Введите полное имя объекта, например Справочник.Пользователи.";
    return;
  }
  if (typeof cytoscape !== "function") {
    status.replaceChildren(errorBox({ error: { message: "библиотека графа не загрузилась (static/vendor/cytoscape.min.js)" } }));
    return;
  }
  const cy = cytoscape({
    container: box, wheelSensitivity: 0.3, minZoom: 0.1, maxZoom: 4,
    style: [
      { selector: "node", style: { "background-color": "data(colour)", label: "data(label)", "font-size": 11,
        "text-valign": "bottom", "text-margin-y": 4, color: "#1f2933", "text-outline-color": "#fff",
        "text-outline-width": 2, width: 22, height: 22, "border-width": 1, "border-color": "#fff" } },
      { selector: "node.centre", style: { width: 40, height: 40, "font-size": 14, "font-weight": "bold",
        "border-width": 4, "border-color": "#1f2933" } },
      { selector: "edge", style: { width: 1.5, "line-color": "#9aa5b1", "target-arrow-color": "#9aa5b1",
        "target-arrow-shape": "triangle", "curve-style": "bezier", "arrow-scale": 1.1, "font-size": 10,
        "text-background-color": "#fff", "text-background-opacity": 0.9, "text-background-padding": 2 } },
      { selector: "edge.weak", style: { "line-style": "dashed", opacity: 0.6 } },
      { selector: "edge.hover", style: { label: "data(label)", width: 3, "line-color": "#1f2933",
        "target-arrow-color": "#1f2933", "z-index": 10 } },
      { selector: "node.hover", style: { "border-color": "#1f2933", "border-width": 3 } },
    ],
  });
  cy.on("tap", "node", (evt) => {
    const target = evt.target.data("name");
    if (target && target !== name) load(target, true);
  });
  cy.on("mouseover", "edge", (evt) => {
    const e = evt.target;
    e.addClass("hover");
    tip.textContent = `${e.data("srcName")} → ${e.data("dstName")}: ${e.data("label")}${e.data("weak") ? " (слабая)" : ""}`;
    tip.hidden = false;
  });
  cy.on("mouseout", "edge", (evt) => { evt.target.removeClass("hover"); tip.hidden = true; });
  cy.on("mouseover", "node", (evt) => { evt.target.addClass("hover"); box.style.cursor = "pointer"; });
  cy.on("mouseout", "node", (evt) => { evt.target.removeClass("hover"); box.style.cursor = ""; });
  window.addEventListener("popstate", () => {
    const n = new URLSearchParams(location.search).get("name");
    if (n && n !== name) load(n, false);
  });
  window.v8graph = cy;   // for the end-to-end test and for poking around in the console
  await load(name, false);

  async function fetchNeighbourhood(centre) {
    const args = { name: centre, config, weak: weak ? "true" : "" };
    let res = await api("get_relations", args);
    if (res.outcome === "error" || !res.data) return res;
    const nodes = [...(res.data.nodes || [])], edges = [...(res.data.edges || [])];
    let cursor = res.data.cursor, pages = 0;
    // A server that pages its answer: follow the cursor until the chosen limit is reached.
    while (cursor && nodes.length - 1 < limit && pages++ < 40) {
      const next = await api("get_relations", Object.assign({}, args, { cursor }));
      if (!next.data) break;
      const seen = new Set(nodes.map((n) => n.id));
      for (const n of next.data.nodes || []) if (!seen.has(n.id)) nodes.push(n);
      edges.push(...(next.data.edges || []));
      cursor = next.data.cursor;
    }
    res.data = Object.assign({}, res.data, { nodes, edges });
    return res;
  }

  async function load(centre, push) {
    status.textContent = `Загрузка связей ${centre}…`;
    const res = await fetchNeighbourhood(centre);
    if (res.outcome === "not_found" || res.outcome === "ambiguous") {
      status.replaceChildren(notFound(centre, res));
      if (!cy.elements().length) wrap.hidden = hint.hidden = true;   // nothing drawn yet: no empty canvas
      return;
    }
    if (res.outcome === "error" || !res.data || !(res.data.nodes || []).length) {
      status.replaceChildren(errorBox({ error: { message: (res.error && res.error.message) || res.text || "нет данных" } },
        "Граф не построен"));
      if (!cy.elements().length) wrap.hidden = hint.hidden = true;
      return;
    }
    wrap.hidden = hint.hidden = false;
    name = centre;
    if (push) history.pushState({}, "", url("/graph", { name, config, limit, weak: weak ? "1" : "" }));
    document.getElementById("name").value = name;
    document.getElementById("graph-title").replaceChildren("Связи: ", el("a", { href: url("/card", { name, config }), text: name }));
    document.title = `Связи ${name} — v8atlas`;
    draw(res.data);
  }

  function draw(data) {
    const byId = new Map();
    for (const n of data.nodes || []) byId.set(String(n.id), n);
    const centreId0 = data.object ? data.object.id : (data.center ?? data.centre);
    const centreNode = (data.nodes || []).find((n) => n.id === centreId0) ||
      (data.nodes || []).find((n) => nodeName(n) === name) || data.nodes[0];
    const centreId = String(centreNode.id);
    const neighbours = (data.nodes || []).filter((n) => String(n.id) !== centreId).slice(0, limit)
      .sort((a, b) => String(a.kind).localeCompare(String(b.kind)) || nodeName(a).localeCompare(nodeName(b)));
    // Rings of growing size keep hundreds of neighbours readable; a class stays together.
    const ringOf = new Map();
    let ring = 1, room = 20, used = 0;
    for (const n of neighbours) {
      if (used === room) { ring += 1; room = Math.round(room * 1.6); used = 0; }
      ringOf.set(String(n.id), ring);
      used += 1;
    }
    const keep = new Set([centreId, ...neighbours.map((n) => String(n.id))]);
    const edges = (data.edges || []).filter((e) => keep.has(String(e.src)) && keep.has(String(e.dst)) && (weak || !e.weak));
    const elements = [];
    for (const n of [centreNode, ...neighbours]) {
      elements.push({ group: "nodes", classes: String(n.id) === centreId ? "centre" : "",
        data: { id: String(n.id), name: nodeName(n), label: shortLabel(n), kind: n.kind, colour: colour(n.kind),
          ring: ringOf.get(String(n.id)) || 0 } });
    }
    edges.forEach((e, i) => {
      elements.push({ group: "edges", classes: e.weak ? "weak" : "", data: { id: `e${i}`, source: String(e.src), target: String(e.dst),
        label: [e.kind, e.label].filter(Boolean).join(": "), weak: !!e.weak,
        srcName: nodeName(byId.get(String(e.src)) || { name: String(e.src) }),
        dstName: nodeName(byId.get(String(e.dst)) || { name: String(e.dst) }) } });
    });
    cy.elements().remove();
    cy.add(elements);
    // Spacing so that the first ring is at least ~260 px across: room for the labels (names of 1C
    // objects run to 30-40 characters) of a dozen neighbours without overlapping.
    const firstRing = Math.max(1, Math.min(neighbours.length, 20));
    const spacing = Math.max(28, Math.min(160, (2 * Math.PI * 260) / firstRing - 22));
    cy.layout({ name: "concentric", concentric: (node) => 1000 - node.data("ring"), levelWidth: () => 1,
      minNodeSpacing: spacing, animate: false, fit: true, padding: 40 }).run();
    // A small neighbourhood would be blown up to fill the box: keep labels at reading size.
    if (cy.zoom() > 1.1) {
      cy.zoom(1.1);
      cy.center();
    }
    // The server counts edges (after hiding weak ones); the limit counts neighbours.
    const total = typeof data.total === "number" ? data.total : edges.length;
    status.replaceChildren(el("strong", { text: `показано ${edges.length} из ${total}` }),
      ` связей · соседей на экране: ${neighbours.length} (лимит ${limit})` + (weak ? " · слабые связи показаны" : ` · слабые скрыты${data.weak_hidden ? ` (${data.weak_hidden})` : ""}`),
      ...notices.map((n) => el("span", { class: "notice-inline", text: ` · ${n}` })));
    box.dataset.centre = name;
    legend([centreNode, ...neighbours]);
  }

  /** Unknown or ambiguous name: say so, and offer the tool's candidates (its structured data,
      not the markdown) as links to their own graphs. */
  function notFound(centre, res) {
    const ambiguous = res.outcome === "ambiguous";
    const candidates = hitsOf(res.data).filter((c) => nameOf(c));
    const box = el("div", { class: `message ${ambiguous ? "info" : "error"}`, role: "alert", "data-testid": "graph-not-found" },
      el("p", {}, outcomeBadge(res.outcome), " ",
        ambiguous ? `«${centre}» называет несколько объектов` :
          `объекта «${centre}» нет${config ? ` в конфигурации ${config}` : ""}`));
    if (candidates.length) {
      box.append(el("p", { text: ambiguous ? "Уточните, какой из них:" : "Похожие имена (догадки, не совпадения):" }),
        el("ul", { class: "candidates" }, candidates.map((c) => el("li", {},
          el("a", { href: url("/graph", { name: nameOf(c), config: c.config || config, limit, weak: weak ? "1" : "" }), text: nameOf(c) }),
          c.config && c.config !== config ? ` (${c.config})` : ""))));
    }
    box.append(el("p", {}, el("a", { href: url("/search", { q: centre, config }), text: "Искать по словам" }),
      " — поиск находит объект по синониму и частям имени."));
    if (res.text) box.append(el("details", { class: "raw-answer" }, el("summary", { text: "ответ агенту целиком" }),
      el("pre", { class: "raw", text: res.text })));
    return box;
  }

  function nodeName(n) {
    return V8.nameOf(n) || String(n.id);
  }

  function shortLabel(n) {
    const full = nodeName(n);
    return full.length > 40 ? `${full.slice(0, 38)}…` : full;
  }

  function legend(nodes) {
    const kinds = new Map();
    for (const n of nodes) kinds.set(n.kind, (kinds.get(n.kind) || 0) + 1);
    document.getElementById("legend").replaceChildren(el("h3", { text: "Классы" }),
      el("ul", {}, [...kinds].sort((a, b) => b[1] - a[1]).map(([k, count]) => el("li", {},
        el("span", { class: "swatch", style: `background:${colour(k)}` }), `${V8.kindLabel(k)} (${count})`))),
      el("p", { class: "hint", text: "пунктир — слабая связь" }));
  }
})();
