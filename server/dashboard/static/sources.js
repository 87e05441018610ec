/* Sources: bundle identity, the list_sources answer (configurations, help versions), the compile report. */
"use strict";
(async () => {
  const { el, api, getJson, agentText, formatAge, errorBox } = V8;
  const bundleBox = document.getElementById("bundle");
  const listingBox = document.getElementById("listing-body");
  const reportBox = document.getElementById("report-body");

  const KIND_LABELS = { configuration: "конфигурация", help: "справка", dictionary: "словарь" };
  const FORMAT_LABELS = { designer: "выгрузка Конфигуратора (XML)", edt: "проект EDT",
    "designer-zip": "выгрузка Конфигуратора (zip)", "edt-zip": "проект EDT (zip)",
    external: "внешняя обработка / отчёт", "external-zip": "внешняя обработка / отчёт (zip)",
    "hbk-context": "синтакс-помощник (.hbk)", "hbk-query": "справка языка запросов (.hbk)", hbk: "справка (.hbk)",
    "dictionary-json": "словарь (JSON)", "dictionary-toml": "словарь (TOML)" };
  const COUNT_LABELS = { documents: "документов в индексе", names: "имён для поиска", edges: "связей",
    help_platform_elements: "элементов справки платформы", help_query_elements: "элементов справки языка запросов" };
  // What each compile-report code means, for a 1C developer who has not read the compiler.
  const REPORT_CODES = {
    xml: "XML-файл выгрузки не читается", unreadable: "файл не читается", "missing-file": "файл объекта не найден",
    empty: "файл без объекта", "class-mismatch": "класс объекта не совпадает с папкой",
    "unknown-kind": "неизвестный вид метаданных", "dangling-reference": "ссылка на объект, которого нет",
    "graph-dangling": "связь с объектом, которого нет", "duplicate-key": "объект встречается дважды",
    "duplicate-configuration": "две конфигурации с одним именем", "not-extension": "не расширение",
    "extension-without-base": "расширение без основной конфигурации",
    "adopted-without-base": "заимствованный объект без объекта основной конфигурации",
    "help-page": "страница справки не читается", "help-book": "книга справки: проблема",
    "help-version": "версия справки не определена", "help-merge": "расхождение версий справки",
    "help-coverage": "справка не покрывает версии платформы", "query-key-missing-page": "нет страницы справки языка запросов",
    "alias-missing-object": "синоним ведёт к объекту, которого нет", "dictionary-entry": "ошибка в записи словаря",
    "search-fields": "поля поиска урезаны", "source-failed": "источник не разобран", "source-stale": "источник взят из кэша",
  };
  const PLATFORM_SOURCE = { compatibility_mode: "по режиму совместимости", "v8atlas.toml": "из v8atlas.toml" };

  const [facts, listing] = await Promise.all([getJson("/ui/bundle"), api("list_sources", {})]);

  if (facts.error) {
    bundleBox.replaceChildren(errorBox(facts, "Пакет"));
  } else {
    const counts = Object.entries(facts.counts || {}).filter(([, v]) => typeof v !== "object");
    bundleBox.replaceChildren(...[
      el("h2", { text: "Пакет" }),
      el("dl", { class: "facts", "data-testid": "bundle-facts" },
        el("dt", { text: "Идентификатор" }), el("dd", {}, el("code", { text: facts.id })),
        el("dt", { text: "Собран" }), el("dd", { text: `${facts.created_at || "?"} (${facts.age_s !== null && facts.age_s < 60 ? "только что" : `${formatAge(facts.age_s)} назад`})` }),
        el("dt", { text: "Хеш содержимого" }), el("dd", {}, el("code", { title: facts.content_hash, text: (facts.content_hash || "").slice(0, 16) })),
        el("dt", { text: "Компилятор / формат" }), el("dd", { text: `${facts.compiler_version || "?"} / ${facts.format_version || "?"}` }),
        el("dt", { text: "Конфигурации" }), el("dd", { text: (facts.configs || []).join(", ") || "нет" }),
        counts.length ? [el("dt", { text: "Счётчики" }), el("dd", { "data-testid": "bundle-counts",
          text: counts.map(([k, v]) => `${COUNT_LABELS[k] || k}: ${v}`).join(" · ") })] : null),
      sourcesTable(facts.sources || []),
      facts.last_rebuild ? el("p", { class: facts.last_rebuild.ok ? "notice" : "error-text",
        text: `Последняя пересборка с панели: ${facts.last_rebuild.at}, ${facts.last_rebuild.ok ? "успешно" : "с ошибкой"} (${facts.last_rebuild.seconds} с) ${facts.last_rebuild.reload || ""}` }) : null].flat().filter(Boolean));
  }

  if (listing.outcome === "error" && !listing.text) listingBox.replaceChildren(errorBox(listing, "list_sources"));
  else listingBox.replaceChildren(...configsView(listing.data || {}, facts.counts_by_class || {}),
    ...helpView((listing.data || {}).help || {}),
    el("details", { class: "raw-answer" }, el("summary", { text: "ответ агенту целиком (list_sources)" }),
      agentText(listing.text || "", {})));

  if (!facts.error) reportBox.replaceChildren(reportView(facts.report || {}));

  function configsView(data, byClass) {
    const configs = data.configs || data.configurations || [];
    if (!configs.length) return [el("p", { text: "Конфигурации не загружены: инструменты метаданных отвечают «недоступно»." })];
    const rows = configs.map((c) => el("tr", {},
      el("td", {}, el("strong", { text: c.name }), c.synonym ? el("div", { class: "hint", text: c.synonym }) : null),
      el("td", { text: c.version || "?" }),
      el("td", {}, c.platform_version ? el("span", { text: c.platform_version }) : el("span", { class: "error-text", text: "неизвестна" }),
        c.platform_source ? el("div", { class: "hint", text: PLATFORM_SOURCE[c.platform_source] || `откуда: ${c.platform_source}` }) : null),
      el("td", { text: c.compatibility_mode || "—" }),
      el("td", { class: "num", text: c.objects ?? "" }),
      el("td", { text: [c.base ? `расширение ${c.base}` : "", ...(c.extensions || [])].filter(Boolean).join(", ") || "—" })));
    const out = [el("h3", { text: "Конфигурации" }), el("table", { class: "grid", "data-testid": "configs" },
      el("thead", {}, el("tr", {}, ["Конфигурация", "Версия", "Платформа и её источник", "Режим совместимости", "Объектов", "Расширения"].map((h) => el("th", { text: h })))),
      el("tbody", {}, rows))];
    for (const c of configs) {
      const kinds = Object.entries(byClass[c.name] || {});
      if (!kinds.length) continue;
      out.push(el("details", { class: "by-class" }, el("summary", { text: `${c.name}: объекты по классам (${kinds.length})` }),
        el("ul", { class: "class-counts" }, kinds.map(([k, n]) => el("li", {}, el("span", { text: k }), el("span", { class: "num", text: n }))))));
    }
    return out;
  }

  function helpView(help) {
    const LABELS = { loaded: "загружены", platform_versions: "версии справки платформы",
      query_versions: "версии справки языка запросов", books: "книги справки", missing: "нужны, но не загружены",
      unused: "загружены, но не нужны", query: "язык запросов" };
    const text = (v) => Array.isArray(v) ? v.map(text).join(", ") :
      (v && typeof v === "object") ? (v.version ? `${v.version}${v.book ? ` ${v.book}` : ""}${v.elements ? ` (${v.elements} эл.)` : ""}` :
        Object.entries(v).map(([k, x]) => `${k}: ${text(x)}`).join("; ")) : String(v);
    const rows = Object.entries(help || {}).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && !v.length))
      .map(([k, v]) => el("tr", {}, el("th", { text: LABELS[k] || k }),
        el("td", { class: k === "missing" ? "error-text" : "", text: text(v) })));
    return [el("h3", { text: "Справка платформы" }),
      rows.length ? el("table", { class: "grid help", "data-testid": "help-versions" }, el("tbody", {}, rows)) :
        el("p", { "data-testid": "help-versions", text: "Сведений о версиях справки в пакете нет." })];
  }

  function sourcesTable(sources) {
    if (!sources.length) return el("p", { text: "Источники не записаны в манифесте." });
    // Configurations first, then help, versions in numeric order (8.3.5 before 8.3.23); the
    // names themselves are shown exactly as the manifest records them.
    const order = (k) => { const i = Object.keys(KIND_LABELS).indexOf(k); return i < 0 ? 99 : i; };
    const sorted = [...sources].sort((a, b) => order(a.kind) - order(b.kind) ||
      String(a.name || "").localeCompare(String(b.name || ""), "ru", { numeric: true }));
    return [el("table", { class: "grid", "data-testid": "bundle-sources" },
      el("thead", {}, el("tr", {}, ["Вид", "Источник", "Формат", "Размер", "sha256"].map((h) => el("th", { text: h })))),
      el("tbody", {}, sorted.map((s) => el("tr", {},
        el("td", { title: s.kind || "", text: KIND_LABELS[s.kind] || s.kind || "" }), el("td", {}, el("code", { text: s.name || "" })),
        el("td", { title: s.format || "", text: FORMAT_LABELS[s.format] || s.format || "" }), el("td", { class: "num", text: size(s.size) }),
        el("td", {}, el("code", { title: s.sha256 || "", text: (s.sha256 || "").slice(0, 12) })))))),
    el("p", { class: "hint", text: "Пути источников — относительно их общей папки (так их записывает компилятор: в пакет не попадают пути этой машины)." })];
  }

  function size(n) {
    if (typeof n !== "number") return "";
    if (n > 1 << 20) return `${(n / (1 << 20)).toFixed(1)} МБ`;
    if (n > 1024) return `${(n / 1024).toFixed(0)} КБ`;
    return `${n} Б`;
  }

  function reportView(report) {
    const errors = report.errors || [], warnings = report.warnings || [], unknown = report.unknown || [];
    const wrap = el("div", {});
    wrap.append(el("p", { "data-testid": "report-summary",
      text: `Ошибок: ${errors.length}, предупреждений: ${warnings.length}, неизвестных элементов: ${unknown.length}` }));
    const rows = [...errors.map((w) => ["ошибка", w]), ...warnings.map((w) => ["предупреждение", w])];
    // One block per code: a code with many lines (a whole class of problem) stays folded.
    const byCode = new Map();
    for (const row of rows) {
      const code = row[1].code || "warning";
      if (!byCode.has(code)) byCode.set(code, []);
      byCode.get(code).push(row);
    }
    const LIMIT = 200;
    for (const [code, list] of byCode) {
      const hasErrors = list.some(([level]) => level === "ошибка");
      const block = el("details", { class: `report-code${hasErrors ? " has-errors" : ""}`, open: list.length <= 10 || hasErrors },
        el("summary", {}, el("code", { text: code }), ` × ${list.length}`,
          REPORT_CODES[code] ? el("strong", { class: "code-label", text: ` ${REPORT_CODES[code]}` }) : null,
          el("span", { class: "hint", text: ` — ${(list[0][1].message || "").slice(0, 120)}` })),
        el("table", { class: "grid report" },
          el("thead", {}, el("tr", {}, ["", "Источник", "Где", "Сообщение"].map((h) => el("th", { text: h })))),
          el("tbody", {}, list.slice(0, LIMIT).map(([level, w]) => el("tr", { class: level === "ошибка" ? "row-error" : "" },
            el("td", { class: "nowrap", text: level }), el("td", { text: w.source || "" }),
            el("td", { text: [w.object, w.file, w.line].filter((v) => v !== undefined && v !== null).join(":") }),
            el("td", { text: w.message || "" }))))),
        list.length > LIMIT ? el("p", { class: "hint", text: `Показаны ${LIMIT} из ${list.length}; полный список: v8atlas inspect BUNDLE --report` }) : null);
      wrap.append(block);
    }
    if (unknown.length) {
      wrap.append(el("h3", { text: "Неизвестные элементы источников" }),
        el("ul", {}, unknown.slice(0, 100).map((u) => el("li", {}, el("code", { text: u.what }), ` × ${u.count}`, u.example ? ` (например, ${u.example})` : ""))));
    }
    return wrap;
  }
})();
