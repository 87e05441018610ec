/* Cards: exactly the text an agent receives, with detail and platform-version switches. */
"use strict";
(async () => {
  const { el, api, getJson, params, url, outcomeBadge, errorBox, agentText, configSelect, setStatus, hitsOf, nameOf } = V8;
  const p = params();
  const name = (p.get("name") || "").trim().slice(0, 300);
  const config = p.get("config") || "";
  const kind = p.get("kind") || "";
  const detail = ["brief", "fields", "full"].includes(p.get("detail")) ? p.get("detail") : "brief";
  const version = p.get("version") || "";
  const facts = await getJson("/ui/bundle");
  const configs = facts.configs || [];
  document.getElementById("name").value = name;
  document.getElementById("kind").value = kind;
  document.getElementById("config-slot").replaceChildren(configSelect(configs, config || configs[0], { id: "config" }));
  const body = document.getElementById("card-body");
  const switches = document.getElementById("switches");
  if (!name) return;
  document.title = `${name} — v8atlas`;
  document.getElementById("card-title").textContent = name;
  setStatus(body, "Загрузка…");
  const effectiveConfig = config || configs[0] || "";

  let result, isPlatform = kind === "platform";
  if (!isPlatform) {
    result = await api("get_object", { name, config: effectiveConfig, detail });
    // Not an object of the configuration: maybe a platform element (Массив.Найти).
    if (!kind && (result.outcome === "not_found" || result.outcome === "error")) {
      const platform = await platformCard();
      if (platform.outcome !== "not_found" && platform.outcome !== "error") {
        result = platform;
        isPlatform = true;
      }
    }
  } else {
    result = await platformCard();
  }

  const listing = isPlatform ? await api("list_sources", {}) : {};
  // The structured card behind the answer (the page renders it in Russian); none on failure.
  // Forms and schemas (`.Форма.`/`.Макет.`) too: their item trees and data sets come from the card.
  const structured = !isPlatform && result.outcome === "found" ?
    await getJson("/ui/card", { name, config: effectiveConfig }).catch(() => null) : null;
  renderSwitches(isPlatform, result);
  render(result, isPlatform);

  function renderSwitches(platform, res) {
    const parts = [];
    if (!platform) {
      const labels = { brief: "кратко", fields: "поля", full: "полностью" };
      parts.push(el("span", { class: "switch-label", text: "Детали:" }),
        el("span", { class: "segmented", role: "group", "data-testid": "detail-switch" },
          ["brief", "fields", "full"].map((d) => el("a", {
            href: url("/card", { name, config, kind, detail: d }), class: d === detail ? "active" : "",
            "aria-current": d === detail ? "page" : null, text: labels[d] }))));
      if (res.outcome === "found") parts.push(el("a", { class: "button", href: url("/graph", { name, config: effectiveConfig }), text: "Граф связей" }));
    } else {
      const versions = helpVersions(listing.data || {});
      const select = el("select", { id: "version", "aria-label": "версия платформы" },
        el("option", { value: "", text: effectiveConfig ? `версия конфигурации ${effectiveConfig}` : "версия по умолчанию" }),
        versions.map((v) => el("option", { value: v, text: v, selected: v === version })));
      select.addEventListener("change", () => {
        window.location.assign(url("/card", { name, config, kind: "platform", version: select.value }));
      });
      parts.push(el("span", { class: "switch-label", text: "Версия платформы:" }), select);
    }
    switches.replaceChildren(...parts);
  }

  function render(res, platform) {
    if (res.outcome === "error" && !res.text) {
      body.replaceChildren(errorBox(res, "Не удалось открыть"));
      return;
    }
    const names = new Set();
    collectNames(res.data, names);
    const element = res.data && res.data.element;
    const ctx = { config: effectiveConfig, names, self: name, lineHook: platform ? platformLine : null,
      owner: element && element.kind === "type" ? element.title : null };
    const head = el("p", { class: "result-head" }, outcomeBadge(res.outcome),
      platform ? " элемент платформы" : " объект метаданных");
    const children = [head];
    if (res.outcome === "not_found" || res.outcome === "ambiguous") {
      const candidates = hitsOf(res.data);
      if (candidates.length) {
        children.push(el("p", { text: res.outcome === "ambiguous" ? "Уточните, какой из них:" : "Похожие имена (догадки):" }),
          el("ul", { class: "candidates" }, candidates.map((c) => el("li", {},
            el("a", { href: url("/card", { name: nameOf(c), config: c.config || effectiveConfig, kind }), text: nameOf(c) })))));
      }
    }
    const cursor = res.data && res.data.cursor;
    const answer = [agentText(res.text || "", ctx), ...(cursor ? [moreButton(cursor, ctx, platform)] : [])];
    if (!platform && res.outcome === "found" && structured && structured.outcome === "found") {
      // the card in the interface's language; the agent's own (English-labelled) text one click away
      children.push(V8Card.view(structured.card, { detail, config: effectiveConfig }),
        el("details", { class: "raw-answer", "data-testid": "agent-answer" },
          el("summary", { text: "ответ агенту целиком (как его получает агент)" }), ...answer));
    } else {
      children.push(...answer);
    }
    body.replaceChildren(...children);
  }

  function moreButton(cursor, ctx, platform) {
    const button = el("button", { type: "button", text: "Показать дальше" });
    button.addEventListener("click", async () => {
      button.disabled = true;
      const next = !platform ? await api("get_object", { name, config: effectiveConfig, detail, cursor }) :
        version ? await getJson("/ui/platform", { name, config: effectiveConfig, version, cursor }) :
          await api("get_platform", { name, config: effectiveConfig, cursor });
      button.replaceWith(agentText(next.text || "", ctx), ...(next.data && next.data.cursor ? [moreButton(next.data.cursor, ctx, platform)] : []));
    });
    return button;
  }

  /** Platform answers name other elements in a few fixed places: the member lists of a type
      ("**Методы** (9): Найти (Find), …"), "See also", and the types after "returns:" /
      "Collection of:". Those names link to their own cards; everything else stays text. */
  function platformLine(line, ctx) {
    const plat = (target, text) => el("a", { class: "name-link", href: url("/card", { name: target, config: ctx.config, kind: "platform" }), text });
    const owner = ctx.owner;
    let m = line.match(/^(\*\*[^*]+\*\*\s*\(\d+\):\s*)(.+)$/u);
    if (m && owner) {
      const head = V8.inline(m[1], {});
      const items = m[2].split(/,\s+/).map((item) => {
        const im = item.match(/^(.+?)(\s+\([^)]*\))?$/u);
        return [plat(`${owner}.${im[1]}`, im[1]), im[2] || ""];
      });
      return [...head, ...items.flatMap((parts, i) => (i ? [", ", ...parts] : parts))];
    }
    m = line.match(/^(See also|См\. также):\s*(.+)$/iu);
    if (m) {
      const names = [...m[2].matchAll(/`([^`]+)`/gu)].map((x) => x[1]);
      const unique = [...new Set(names)];
      return [`${m[1]}: `, ...unique.flatMap((n, i) => (i ? [", ", plat(n, n)] : [plat(n, n)]))];
    }
    m = line.match(/^(.*?\b(?:returns|Collection of):\s*)([\p{L}_][\p{L}\p{N}_.]*)(.*)$/u);
    if (m) return [...V8.inline(m[1], ctx), plat(m[2], m[2]), ...V8.inline(m[3], ctx)];
    return null;
  }

  /** Names the answer itself references (links, types, candidates): they become card links. */
  function collectNames(data, out, depth = 0) {
    if (!data || depth > 4) return;
    if (Array.isArray(data)) { data.forEach((x) => collectNames(x, out, depth + 1)); return; }
    if (typeof data !== "object") return;
    for (const [k, v] of Object.entries(data)) {
      if (["links", "see_also", "types", "related", "returns", "type_names"].includes(k)) {
        for (const x of [].concat(v)) if (typeof x === "string" && x.length < 200) out.add(x);
          else if (x && typeof x === "object" && (x.name || x.full_name)) out.add(x.full_name || x.name);
      } else if (typeof v === "object") collectNames(v, out, depth + 1);
    }
  }

  /** A chosen platform version goes through the dashboard's /ui/platform (the tool itself
      answers for the configuration's version); without one, the tool is asked directly. */
  async function platformCard() {
    if (!version) return api("get_platform", { name, config: effectiveConfig });
    return getJson("/ui/platform", { name, config: effectiveConfig, version });
  }

  function helpVersions(data) {
    const found = new Set();
    const help = data.help || {};
    for (const v of [].concat(help.loaded || [], help.platform_versions || [], help.unused || [])) {
      if (typeof v === "string") found.add(v);
    }
    for (const c of data.configs || []) if (c.platform_version) found.add(c.platform_version);
    return [...found].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  }
})();
