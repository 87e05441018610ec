/* Search: one phrase, metadata and platform side by side, with the reason for each hit. */
"use strict";
(async () => {
  const { el, api, getJson, params, url, hitsOf, nameOf, whyOf, outcomeBadge, errorBox, agentText, configSelect, setStatus } = V8;
  const q = (params().get("q") || "").slice(0, 500);
  const config = params().get("config") || "";
  document.getElementById("q").value = q;
  const facts = await getJson("/ui/bundle");
  const configs = facts.configs || [];
  document.getElementById("config-slot").replaceChildren(configSelect(configs, config || configs[0], { id: "config" }));
  const metaBox = document.getElementById("meta-results");
  const platformBox = document.getElementById("platform-results");
  if (!q.trim()) {
    metaBox.replaceChildren(el("p", { class: "hint", text: "Введите фразу так, как спросил бы разработчик." }));
    platformBox.replaceChildren();
    return;
  }
  document.title = `${q} — поиск — v8atlas`;
  setStatus(metaBox, "Ищу…");
  setStatus(platformBox, "Ищу…");
  // Several configurations: the first is chosen visibly in the selector (the tools themselves
  // never pick one silently, so the page names its choice).
  const effectiveConfig = config || configs[0] || "";
  const [meta, platform] = await Promise.all([
    api("search_metadata", { query: q, config: effectiveConfig, limit: 20 }),
    api("search_platform", { query: q, config: effectiveConfig, limit: 20 }),
  ]);
  metaBox.replaceChildren(results(meta, "metadata"));
  platformBox.replaceChildren(results(platform, "platform"));

  function results(result, side) {
    if (result.outcome === "error" && !hitsOf(result.data).length) return errorBox(result, "Ошибка");
    const hits = hitsOf(result.data);
    // not_found with hits: the tool's guesses, not matches; say so rather than "not found, 4 matches"
    const counted = result.outcome === "not_found" && hits.length ? ` уверенных совпадений нет; похожие (догадки): ${hits.length}` :
      result.outcome === "ambiguous" ? ` несколько равноценных совпадений: ${hits.length}` : ` совпадений: ${hits.length}`;
    const head = el("p", { class: "result-head", "data-testid": `head-${side}` }, outcomeBadge(result.outcome), counted);
    if (!hits.length) return el("div", {}, head, agentText(result.text || "", { config: effectiveConfig }));
    const list = el("ol", { class: "hits", "data-testid": `hits-${side}` });
    for (const hit of hits) {
      const name = nameOf(hit);
      const hitConfig = hit.config || effectiveConfig;
      const kind = side === "platform" ? "platform" : "";
      const why = whyOf(hit, q);
      const synonym = hit.synonym || (hit.title && hit.title !== name ? hit.title : "");
      list.append(el("li", { class: "hit" },
        el("div", { class: "hit-title" },
          el("a", { href: url("/card", { name, config: hitConfig, kind }), class: "hit-name", text: name }),
          hit.kind ? el("span", { class: "tag", title: hit.kind, text: V8.kindLabel(hit.kind) }) : null,
          hit.config && configs.length > 1 ? el("span", { class: "tag tag-config", text: hit.config }) : null,
          typeof hit.score === "number" ? el("span", { class: "score", title: "оценка", text: hit.score.toFixed(2) }) : null),
        synonym ? el("div", { class: "synonym", text: synonym }) : null,
        why.length ? el("ul", { class: "why", "data-testid": "why" }, why.map((w) => el("li", { text: w }))) :
          el("div", { class: "why hint", text: "причина не указана" }),
        side === "metadata" ? el("a", { class: "alias-link", href: url("/alias", { phrase: q, config: hitConfig }),
          text: "неверно? создать синоним" }) : null));
    }
    const details = el("details", { class: "raw-answer" }, el("summary", { text: "ответ агенту целиком" }),
      agentText(result.text || "", { config: effectiveConfig }));
    const footer = side === "metadata" ? el("p", { class: "hint" }, "Нужного объекта нет в списке? ",
      el("a", { href: url("/alias", { phrase: q, config: effectiveConfig }), text: "Создать синоним для этой фразы" }), ".") : null;
    return el("div", {}, head, list, footer, details);
  }
})();
