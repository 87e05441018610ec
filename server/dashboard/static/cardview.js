/* An object's card in Russian, built from the structured card (/ui/card), not from the agent's
   English markdown: section names, flags and notes in the interface's language; names, types
   and synonyms exactly as the card holds them. Nodes via V8.el (textContent only). */
"use strict";
const V8Card = (() => {
  const { el, url } = V8;
  const SECTIONS = [
    ["standard_attributes", "Стандартные реквизиты"], ["attributes", "Реквизиты"], ["dimensions", "Измерения"],
    ["resources", "Ресурсы"], ["addressing_attributes", "Реквизиты адресации"],
    ["accounting_flags", "Признаки учета"], ["ext_dimension_accounting_flags", "Признаки учета субконто"],
    ["columns", "Графы"], ["enum_values", "Значения"], ["values", "Значения"],
  ];
  const LISTS = [
    ["forms", "Формы"], ["commands", "Команды"], ["templates", "Макеты"], ["route_points", "Точки маршрута"],
    ["recalculations", "Перерасчеты"], ["predefined", "Предопределенные"], ["common_attributes", "Общие реквизиты"],
  ];
  const FLAGS = {
    indexing: "индексирование", master: "ведущее", main_filter: "основной отбор",
    deny_incomplete_values: "запрет незаполненных", balance: "балансовый", use_in_totals: "в итогах",
    fill_checking: "проверка заполнения", multi_line: "многострочный", use: "использование",
    accounting_flag: "признак учета", ext_dimension_accounting_flag: "признак учета субконто",
    base_dimension: "базовое", schedule_link: "связь с графиком", references: "ссылается на",
  };
  const SHOWN_TYPES = 3;

  function types(f, full) {
    const list = Array.isArray(f.types) && f.types.length ? f.types : f.type ? [f.type] : [];
    if (full || list.length <= SHOWN_TYPES) return list.join(" | ");
    return `${list.slice(0, SHOWN_TYPES).join(" | ")} | … (всего типов: ${list.length})`;
  }

  function flagText(flags) {
    return Object.entries(flags || {}).filter(([, v]) => v !== false && v !== null && v !== "")
      .map(([k, v]) => (v === true ? FLAGS[k] || k : `${FLAGS[k] || k}: ${[].concat(v).join(", ")}`));
  }

  function fieldRow(f, full) {
    const notes = flagText(f.flags);
    if (f.origin) notes.push(`из расширения ${f.origin}`);
    if (f.unverified) notes.push("наличие не подтверждено документацией");
    return el("tr", {},
      el("td", {}, el("code", { text: f.name || "?" }), f.alias ? el("span", { class: "hint", text: ` (${f.alias})` }) : null),
      el("td", { text: types(f, full) }),
      el("td", { text: f.synonym && f.synonym !== f.name ? f.synonym : "" }),
      el("td", {}, notes.join("; "),
        f.unlimited ? el("div", { class: "warn", text: `неограниченная строка: в запросе ${f.recipe || "ПОДСТРОКА(поле, 1, N)"}` }) : null,
        full && f.comment ? el("div", { class: "hint", text: `// ${f.comment}` }) : null));
  }

  function fieldTable(fields, full) {
    return el("table", { class: "grid fields" },
      el("thead", {}, el("tr", {}, ["Имя", "Тип", "Синоним", "Особенности"].map((h) => el("th", { text: h })))),
      el("tbody", {}, fields.map((f) => fieldRow(typeof f === "object" ? f : { name: String(f) }, full))));
  }

  function names(items) {
    return items.map((x) => (typeof x === "object" && x ? x.name || x.object || "?" : String(x)));
  }

  function section(title, count, ...children) {
    return el("section", { class: "card-section" }, el("h3", { text: count === null ? title : `${title} (${count})` }), ...children);
  }

  function objectLinks(list, config) {
    return el("ul", { class: "inline-list" }, list.map((n) => el("li", {},
      el("a", { class: "name-link", href: url("/card", { name: n, config }), text: n }))));
  }

  function queryTables(tables, detail) {
    return tables.map((t) => {
      const params = Array.isArray(t.params) && t.params.length ? `(${t.params.join(", ")})` : "";
      const fields = Array.isArray(t.fields) ? t.fields : [];
      const head = el("div", { class: "qt-head" }, el("code", { text: `${t.name}${params}` }),
        t.kind && t.kind !== "object" ? el("span", { class: "tag", text: QT_KIND[t.kind] || t.kind }) : null);
      if (detail === "brief") return el("li", {}, head);
      return el("li", {}, head,
        detail === "full" ? fieldTable(fields, true) : el("div", { class: "qt-fields", text: names(fields).join(", ") }),
        t.note ? el("div", { class: "hint", text: `примечание: ${t.note}` }) : null);
    });
  }
  const QT_KIND = {
    virtual: "виртуальная", tabular_section: "табличная часть", standard_tabular_section: "стандартная табличная часть",
    changes: "изменения", recalculation: "перерасчет", auxiliary: "служебная",
  };

  function propertyValue(v) {
    if (v === true) return "да";
    if (v === false) return "нет";
    if (Array.isArray(v)) return v.map((x) => (typeof x === "object" && x ? x.object || x.name || JSON.stringify(x) : String(x))).join(", ");
    if (v && typeof v === "object") return types(v, true);
    return String(v);
  }

  // A form's item tree and a schema's data sets → fields, from the card's form / template
  // sections (compiler/forms/cards.py): nested lists, one level per nesting in the card.
  const PROP_TEXT = { visible: "скрыт", enabled: "недоступен", read_only: "только просмотр" };

  function handlerText(hs) {
    if (!Array.isArray(hs) || !hs.length) return "";
    return " · " + hs.map((h) => `${h.event}→${h.procedure}${h.missing ? " (нет процедуры в модуле)" : ""}`).join(", ");
  }

  function itemTree(items, depth, deep) {
    return el("ul", { class: "ui-tree" }, items.map((i) => {
      const props = i.props && typeof i.props === "object" ? Object.keys(i.props).map((k) => PROP_TEXT[k] || k) : [];
      const line = [el("code", { text: `${i.kind} ${i.name || ""}`.trim() }),
        i.title ? ` «${i.title}»` : "", i.path ? ` [${i.path}]` : "", i.command ? ` → ${i.command}` : "",
        props.length ? ` (${props.join(", ")})` : "", i.unknown_kind ? " (вид неизвестен читателю)" : "",
        handlerText(i.handlers)];
      const kids = Array.isArray(i.items) && i.items.length && deep ? itemTree(i.items, depth + 1, deep) : null;
      return el("li", { "data-depth": String(depth) }, ...line, kids);
    }));
  }

  function formView(f, detail) {
    const out = [];
    const facts = [["Вид формы", f.form_type === "Managed" ? "управляемая" : f.form_type], ["Заголовок", f.title],
      ["Не прочитана", f.not_read], ["Модуль", f.module ? `процедур: ${f.module.procedures}` : ""]].filter(([, v]) => v);
    out.push(el("dl", { class: "facts" }, facts.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })])));
    if (Array.isArray(f.handlers) && f.handlers.length) {
      out.push(section("События формы", f.handlers.length, el("p", { text: handlerText(f.handlers).slice(3) })));
    }
    if (Array.isArray(f.items) && f.items.length) {
      out.push(section("Элементы", f.items.length, itemTree(f.items, 0, detail !== "brief")));
    }
    if (Array.isArray(f.attributes) && f.attributes.length) {
      out.push(section("Реквизиты формы", f.attributes.length, el("ul", { class: "ui-tree" }, f.attributes.map((a) =>
        el("li", {}, el("code", { text: a.name }), a.main ? " (основной)" : "", a.type ? ` — ${a.type}` : "",
          a.main_table ? ` · основная таблица ${a.main_table}` : "", a.custom_query ? " · произвольный запрос" : "")))));
    }
    if (Array.isArray(f.commands) && f.commands.length) {
      out.push(section("Команды формы", f.commands.length, el("p", { text: f.commands.map((c) =>
        `${c.name}${c.action ? `→${c.action}` : ""}${c.missing ? " (нет процедуры в модуле)" : ""}`).join(", ") })));
    }
    if (Array.isArray(f.parameters) && f.parameters.length) {
      out.push(section("Параметры формы", f.parameters.length, el("p", { text: f.parameters.map((x) =>
        `${x.name}${x.key ? " (ключевой)" : ""}${x.type ? ` — ${x.type}` : ""}`).join("; ") })));
    }
    return out;
  }

  function dataSets(sets, depth) {
    return el("ul", { class: "ui-tree" }, sets.map((d) => el("li", { "data-depth": String(depth) },
      el("code", { text: d.name || "?" }), ` — ${d.kind}${d.source ? ` (источник ${d.source})` : ""}`,
      d.unknown_kind ? " (вид неизвестен читателю)" : "",
      Array.isArray(d.fields) && d.fields.length ? el("ul", { class: "ui-tree" }, d.fields.map((f) =>
        el("li", { "data-depth": String(depth + 1) }, el("code", { text: f.path }), f.title ? ` «${f.title}»` : "",
          f.role && Object.keys(f.role).length ? ` · роль: ${Object.entries(f.role).map(([k, v]) => `${k}=${v}`).join(", ")}` : ""))) : null,
      Array.isArray(d.items) && d.items.length ? dataSets(d.items, depth + 1) : null)));
  }

  function templateView(t) {
    const out = [el("dl", { class: "facts" }, el("dt", { text: "Тип макета" }), el("dd", { text: t.template_type }),
      ...(t.not_read ? [el("dt", { text: "Не прочитан" }), el("dd", { text: t.not_read })] : []))];
    const s = t.schema;
    if (!s) return out;
    if (Array.isArray(s.data_sets) && s.data_sets.length) out.push(section("Наборы данных", s.data_sets.length, dataSets(s.data_sets, 0)));
    if (Array.isArray(s.calculated_fields) && s.calculated_fields.length) {
      out.push(section("Вычисляемые поля", s.calculated_fields.length, el("p", { text: s.calculated_fields.map((c) => `${c.path} = ${c.expression}`).join("; ") })));
    }
    if (Array.isArray(s.resources) && s.resources.length) {
      out.push(section("Ресурсы", s.resources.length, el("p", { text: s.resources.map((r) => `${r.path}${r.aggregate ? ` (${r.aggregate})` : ""}`).join(", ") })));
    }
    if (Array.isArray(s.parameters) && s.parameters.length) {
      out.push(section("Параметры", s.parameters.length, el("p", { text: s.parameters.map((x) => `${x.name}${x.type ? ` — ${x.type}` : ""}`).join("; ") })));
    }
    if (Array.isArray(s.variants) && s.variants.length) {
      out.push(section("Варианты настроек", s.variants.length, el("p", { text: s.variants.map((v) => v.title ? `${v.name} «${v.title}»` : v.name).join(", ") })));
    }
    return out;
  }

  /** The whole view: head facts, properties, query tables, fields, tabular sections, lists. */
  function view(card, { detail, config }) {
    const full = detail === "full";
    const out = [];
    const facts = [["Класс", card.class_name], ["Владелец", card.owner], ["Синоним", card.synonym], ["Тип ссылки", card.ref_type],
      ["Комментарий", card.comment], ["Английское имя", card.full_name_alias]].filter(([, v]) => v);
    out.push(el("dl", { class: "facts" }, facts.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })])));
    const props = card.properties && typeof card.properties === "object" ? Object.entries(card.properties) : [];
    if (props.length && detail !== "brief") {
      out.push(section("Свойства", null, el("dl", { class: "facts" },
        props.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: propertyValue(v) })]))));
    }
    if (Array.isArray(card.query_tables) && card.query_tables.length) {
      out.push(section("Таблицы запросов", card.query_tables.length, el("ul", { class: "query-tables" }, queryTables(card.query_tables, detail))));
    }
    for (const [key, title] of SECTIONS) {
      const fields = card[key];
      if (!Array.isArray(fields) || !fields.length) continue;
      out.push(section(title, fields.length, detail === "brief" ? el("p", { text: names(fields).join(", ") }) : fieldTable(fields, full)));
    }
    if (Array.isArray(card.tabular_sections) && card.tabular_sections.length) {
      out.push(section("Табличные части", card.tabular_sections.length, ...card.tabular_sections.map((ts) =>
        el("div", { class: "tabular" }, el("h4", {}, el("code", { text: ts.name }), ts.synonym ? ` — ${ts.synonym}` : ""),
          detail === "brief" ? el("p", { text: names(ts.attributes || []).join(", ") }) : fieldTable(ts.attributes || [], full)))));
    }
    const mv = card.movements && typeof card.movements === "object" ? card.movements : {};
    if (Array.isArray(mv.registers) && mv.registers.length) out.push(section("Движения по регистрам", mv.registers.length, objectLinks(mv.registers, config)));
    if (Array.isArray(mv.recorders) && mv.recorders.length) out.push(section("Регистраторы (документы)", mv.recorders.length, objectLinks(mv.recorders, config)));
    for (const [key, title] of LISTS) {
      const items = card[key];
      if (!Array.isArray(items) || !items.length) continue;
      out.push(section(title, items.length, el("p", { text: names(items).join(", ") })));
    }
    if (card.form && typeof card.form === "object") out.push(section("Форма", null, ...formView(card.form, detail)));
    if (card.template && typeof card.template === "object") out.push(section("Макет", null, ...templateView(card.template)));
    const rel = card.relations;
    if (rel && typeof rel === "object") {
      const part = (k, label) => (rel[k] && Object.keys(rel[k]).length ? `${label}: ${Object.entries(rel[k]).map(([a, n]) => `${a} ${n}`).join(", ")}` : "");
      const text = [part("out", "исходящие"), part("in", "входящие"), part("out_weak", "слабые исходящие"), part("in_weak", "слабые входящие")].filter(Boolean).join("; ");
      if (text) out.push(section("Связи", null, el("p", {}, text, " — ", el("a", { href: url("/graph", { name: card.full_name, config }), text: "граф связей" }))));
    }
    return el("div", { class: "card-view", "data-testid": "card-view" }, ...out);
  }

  return { view };
})();
