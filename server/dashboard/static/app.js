/* v8atlas dashboard: shared helpers. Data never goes through innerHTML: every node is built
   with createElement and filled with textContent, so names and phrases are shown, never run. */
"use strict";

const V8 = (() => {
  const meta = (name) => (document.querySelector(`meta[name="${name}"]`) || {}).content || "";
  const session = { csrf: meta("v8-csrf"), role: meta("v8-role"), adminEnabled: !!meta("v8-admin-enabled") };

  /** el("a", {href: "/x", class: "y"}, "text", childNode…) */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "href" && !isLocalHref(value)) continue;   // only links into this site
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function isLocalHref(value) {
    return typeof value === "string" && value.startsWith("/") && !value.startsWith("//");
  }

  function params() {
    return new URLSearchParams(window.location.search);
  }

  function url(path, query) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query || {})) {
      if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
    }
    const s = q.toString();
    return s ? `${path}?${s}` : path;
  }

  /** GET /api/<tool>: always resolves to {outcome, text, data, error?, status}. */
  async function api(tool, args) {
    let response;
    try {
      response = await fetch(url(`/api/${tool}`, args), {
        credentials: "same-origin", headers: { Accept: "application/json" } });
    } catch (e) {
      return { outcome: "error", status: 0, error: { code: "network", message: "сервер не отвечает" } };
    }
    if (response.status === 401) {
      window.location.assign(url("/login", { next: location.pathname + location.search,
        reason: "login" }));
      return new Promise(() => {});
    }
    return readJson(response);
  }

  async function getJson(path, args) {
    const response = await fetch(url(path, args), { credentials: "same-origin",
      headers: { Accept: "application/json" } });
    if (response.status === 401) {
      window.location.assign(url("/login", { next: location.pathname + location.search }));
      return new Promise(() => {});
    }
    return readJson(response);
  }

  async function readJson(response) {
    let body;
    try {
      body = await response.json();
    } catch (e) {
      body = { outcome: "error", error: { code: "bad_response", message: `ответ ${response.status} не JSON` } };
    }
    if (body && typeof body === "object") body.status = response.status;
    return body || {};
  }

  const OUTCOME_RU = { found: "найдено", ambiguous: "неоднозначно", not_found: "не найдено",
    unavailable: "недоступно", error: "ошибка", list: "список" };

  function outcomeBadge(outcome) {
    return el("span", { class: `outcome outcome-${outcome || "error"}`, text: OUTCOME_RU[outcome] || outcome || "?" });
  }

  function errorBox(result, what) {
    const message = (result.error && result.error.message) || result.text || "неизвестная ошибка";
    return el("div", { class: "message error", role: "alert" },
      el("strong", { text: what ? `${what}: ` : "" }), message);
  }

  function setStatus(node, text) {
    node.replaceChildren(el("p", { class: "loading", text }));
  }

  // --- names inside texts link to their own cards ---------------------------------------
  const CLASS_WORDS = ["Справочник", "Документ", "Перечисление", "РегистрСведений", "РегистрНакопления",
    "РегистрБухгалтерии", "РегистрРасчета", "ПланВидовХарактеристик", "ПланСчетов", "ПланВидовРасчета",
    "ПланОбмена", "БизнесПроцесс", "Задача", "ОбщийМодуль", "Константа", "ЖурналДокументов", "Отчет",
    "Обработка", "Роль", "Подсистема", "ОбщаяФорма", "ОбщийМакет", "ОбщаяКартинка", "ОпределяемыйТип",
    "ПараметрСеанса", "РегламентноеЗадание", "ПодпискаНаСобытие", "ХранилищеНастроек",
    "ФункциональнаяОпция", "ПараметрФункциональныхОпций", "HTTPСервис", "WebСервис", "ОбщаяКоманда",
    "ГруппаКоманд", "ОбщийРеквизит", "КритерийОтбора", "ПоследовательностьДокументов", "ЭлементСтиля",
    "Язык", "НумераторДокументов", "XDTOПакет", "ВнешнийИсточникДанных", "ПланВидовХарактеристик",
    "Catalog", "Document", "Enum", "InformationRegister", "AccumulationRegister", "AccountingRegister",
    "CalculationRegister", "ChartOfCharacteristicTypes", "ChartOfAccounts", "ChartOfCalculationTypes",
    "ExchangePlan", "BusinessProcess", "Task", "CommonModule", "Constant", "DocumentJournal", "Report",
    "DataProcessor", "Role", "Subsystem", "CommonForm", "DefinedType", "SessionParameter"];
  // Reference types (СправочникСсылка.X) open the object's card too.
  const TYPE_SUFFIX = "(?:Ссылка|Объект|Менеджер|Выборка|Список|НаборЗаписей|Ref|Object|Manager)?";
  const NAME_RE = new RegExp(`(?<![\\p{L}\\p{N}_.])((${CLASS_WORDS.join("|")})${TYPE_SUFFIX})\\.([\\p{L}_][\\p{L}\\p{N}_]*)`, "gu");
  const TYPE_TO_CLASS = /(Ссылка|Объект|Менеджер|Выборка|Список|НаборЗаписей|Ref|Object|Manager)$/u;

  /** Text → nodes with metadata full names (and names in `extra`) turned into card links. */
  function linkify(text, ctx) {
    const out = [];
    const extra = (ctx && ctx.names) || new Set();
    if (extra.has(text) && text !== ctx.self) {
      return [el("a", { href: cardUrl(text, ctx), class: "name-link", text })];
    }
    let last = 0;
    for (const m of text.matchAll(NAME_RE)) {
      const cls = CLASS_WORDS.includes(m[1]) ? m[1] : m[1].replace(TYPE_TO_CLASS, "");
      const target = `${cls}.${m[3]}`;
      if (m.index > last) out.push(text.slice(last, m.index));
      if (target === (ctx && ctx.self)) out.push(m[0]);
      else out.push(el("a", { href: cardUrl(target, ctx), class: "name-link", text: m[0] }));
      last = m.index + m[0].length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }

  function cardUrl(name, ctx) {
    return url("/card", { name, config: ctx && ctx.config });
  }

  // --- the small markdown subset agent answers use, rendered without innerHTML -----------
  function inline(text, ctx) {
    const nodes = [];
    const re = /(`+)([\s\S]*?)\1|\*\*([^*]+)\*\*|_([^_\s][^_]*)_(?![\p{L}\p{N}])/gu;
    let last = 0;
    for (const m of text.matchAll(re)) {
      if (m.index > last) nodes.push(...linkify(text.slice(last, m.index), ctx));
      if (m[1]) nodes.push(el("code", {}, linkify(m[2], ctx)));
      else if (m[3] !== undefined) nodes.push(el("strong", {}, inline(m[3], ctx)));
      else nodes.push(el("em", {}, inline(m[4], ctx)));
      last = m.index + m[0].length;
    }
    if (last < text.length) nodes.push(...linkify(text.slice(last), ctx));
    return nodes;
  }

  function splitRow(line) {
    return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
  }

  function markdown(text, ctx) {
    const root = el("div", { class: "md" });
    const lines = String(text || "").replace(/\r\n?/g, "\n").split("\n");
    let i = 0;
    let para = [];
    const flush = () => {
      if (para.length) root.append(el("p", { class: "line" }, inline(para.join(" "), ctx)));
      para = [];
    };
    while (i < lines.length) {
      const line = lines[i];
      const fence = line.match(/^\s*(```+|~~~+)/);
      if (fence) {
        flush();
        const body = [];
        i++;
        while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
        i++;
        root.append(el("pre", { class: "code" }, el("code", {}, linkify(body.join("\n"), ctx))));
        continue;
      }
      const heading = line.match(/^(#{1,6})\s+(.*)$/);
      if (heading) {
        flush();
        const level = Math.min(6, heading[1].length + 1);
        root.append(el(`h${level}`, {}, inline(heading[2], ctx)));
        i++;
        continue;
      }
      if (/^\s*\|.*\|\s*$/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
        flush();
        const head = splitRow(line);
        const table = el("table", { class: "md-table" },
          el("thead", {}, el("tr", {}, head.map((c) => el("th", {}, inline(c, ctx))))));
        const tbody = el("tbody");
        i += 2;
        while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) {
          tbody.append(el("tr", {}, splitRow(lines[i]).map((c) => el("td", {}, inline(c, ctx)))));
          i++;
        }
        table.append(tbody);
        root.append(table);
        continue;
      }
      const item = line.match(/^(\s*)([-*+]|\d+[.)])\s+(.*)$/);
      if (item) {
        flush();
        const ordered = /\d/.test(item[2]);
        const list = el(ordered ? "ol" : "ul");
        while (i < lines.length) {
          const m = lines[i].match(/^(\s*)([-*+]|\d+[.)])\s+(.*)$/);
          if (!m) {
            // a continuation line of the previous item (indented, not blank)
            if (/^\s{2,}\S/.test(lines[i]) && list.lastChild) {
              const more = (ctx && ctx.lineHook && ctx.lineHook(lines[i].trim(), ctx)) || inline(lines[i].trim(), ctx);
              list.lastChild.append(" ", ...more);
              i++;
              continue;
            }
            break;
          }
          const li = el("li", {}, (ctx && ctx.lineHook && ctx.lineHook(m[3], ctx)) || inline(m[3], ctx));
          // nested items keep their depth (a form's item tree, a schema's data sets → fields)
          if (m[1].length >= 2) {
            li.className = "nested";
            li.dataset.depth = String(Math.floor(m[1].length / 2));
            li.style.setProperty("--depth", li.dataset.depth);
          }
          list.append(li);
          i++;
        }
        root.append(list);
        continue;
      }
      if (/^\s*>/.test(line)) {
        flush();
        const quote = [];
        while (i < lines.length && /^\s*>/.test(lines[i])) quote.push(lines[i++].replace(/^\s*>\s?/, ""));
        root.append(el("blockquote", {}, inline(quote.join(" "), ctx)));
        continue;
      }
      if (!line.trim()) {
        flush();
        i++;
        continue;
      }
      // Agent answers put one fact per line: keep each line as its own block, as the agent reads it.
      const hooked = ctx && ctx.lineHook ? ctx.lineHook(line.trim(), ctx) : null;
      if (hooked) {
        flush();
        root.append(el("p", { class: "line" }, hooked));
      } else {
        para.push(line.trim());
        flush();
      }
      i++;
    }
    flush();
    return root;
  }

  /** The agent's exact text: rendered view plus the raw markdown, switchable. */
  function agentText(text, ctx) {
    const rendered = markdown(text, ctx);
    const raw = el("pre", { class: "raw", hidden: true, "data-testid": "raw-text" }, String(text || ""));
    const toggle = el("button", { type: "button", class: "link-button", text: "показать исходный markdown" });
    toggle.addEventListener("click", () => {
      raw.hidden = !raw.hidden;
      rendered.hidden = !raw.hidden;
      toggle.textContent = raw.hidden ? "показать исходный markdown" : "показать оформленным";
    });
    return el("div", { class: "agent-text" },
      el("div", { class: "agent-text-bar" }, el("span", { class: "hint", text: "ровно то, что получает агент" }), toggle),
      rendered, raw);
  }

  // --- tolerant readers of tool data (the same shapes MCP clients get) -------------------
  function firstArray(data, keys) {
    if (!data || typeof data !== "object") return [];
    for (const key of keys) if (Array.isArray(data[key])) return data[key];
    return [];
  }

  function hitsOf(data) {
    return firstArray(data, ["results", "hits", "items", "matches", "candidates"]);
  }

  function nameOf(item) {
    if (typeof item === "string") return item;
    // Tool data names a document by its key ("БСП/Справочник.X") and its title (the full name
    // to ask with); the title is what a person reads and what the tools resolve.
    return item.full_name || item.title || item.address || item.name || item.key || "";
  }

  // Search fields, as the reasons name them (compiler/search/build.py FIELDS), in Russian.
  const FIELD_RU = {
    name: "имени", alias: "синониме словаря", synonym: "синониме", english: "английском имени",
    name_en: "английском имени", keys: "ключах поиска", class: "названии класса", owner: "владельце",
    comment: "комментарии", params: "параметрах", attributes: "реквизитах", description: "описании",
    has: "реквизите", whole: "имени целиком", context: "окружении (подсистемы, формы, команды, предопределённые)",
    presentation: "представлении", explanation: "пояснении",
  };
  // The engine's reasons (server/search.py) in the interface's language; unknown ones stay as they are.
  const REASON_RU = [
    [/^exact name$/u, () => "точное имя"],
    [/^alias «(.+)»(.*)$/u, (m) => `синоним словаря «${m[1]}»${m[2]}`],
    [/^has attribute (.+)$/u, (m) => `есть реквизит «${m[1]}»`],
    // the engine names synonym phrases by their index terms (word stems): the query's side is
    // shown as typed, the other side as word beginnings ("номенклатур…")
    [/^synonym (.+?) → (.+?)(?: \((.+)\))?$/u, (m, q) => `синоним: «${m[1].split(" ").map((w) => typedWord(w, q)).join(" ")}» → ` +
      `«${m[2].split(" ").map((w) => `${w}…`).join(" ")}»${m[3] ? ` (${m[3] === "built-in" ? "встроенный" : m[3]})` : ""}`],
    [/^typo (.+?) → (.+)$/u, (m) => `опечатка: «${m[1]}» → «${m[2]}»`],
    [/^prefix (.+)$/u, (m) => `начало слова: ${m[1]}`],
    [/^class named in the query: (.+)$/u, (m) => `класс назван в запросе: ${kindLabel(m[1])}`],
    [/^query-language phrase lifted query-language pages$/u, () => "фраза языка запросов: страницы языка запросов выше"],
    [/^the whole name or phrase(?: \((.+)\))?$/u, (m) => "имя или фраза целиком" + (m[1] ? ` (${m[1]})` : "")],
    [/^name starts with '(.+)'$/u, (m) => `имя начинается с «${m[1]}»`],
    [/^text match$/u, () => "совпадение текста"],
    [/^word family (.+?) → (.+)$/u, (m) => `однокоренное: «${m[1]}» → «${m[2]}…»`],
    [/^a part of the phrase is its name: «(.+)»$/u, (m) => `часть фразы — его имя: «${m[1]}»`],
    [/^phrase form «(.+)» lifts (.+)$/u, (m) => `форма фразы «${m[1]}» поднимает: ${kindLabel(m[2])}`],
    [/^graph importance: (\d+) objects? refers? to it$/u, (m) => `важность в графе связей: ссылающихся объектов — ${m[1]}`],
    [/^read by the report (.+), which the phrase matches$/u, (m) => `его читает отчёт ${m[1]}, найденный по словам запроса`],
    [/^abbreviation (.+?) → (.+)$/u, (m) => `сокращение: «${m[1]}» → «${m[2]}»`],
    [/^keyboard layout: '(.*)' → '(.*)'$/u, (m) => `раскладка клавиатуры: «${m[1]}» → «${m[2]}»`],
    [/^transliteration: '(.*)' → '(.*)'$/u, (m) => `транслитерация: «${m[1]}» → «${m[2]}»`],
  ];

  function reasonRu(text, query) {
    for (const [re, f] of REASON_RU) {
      const m = text.match(re);
      if (m) return f(m, query);
    }
    return text;
  }

  /** The query's own word for a folded match word or an index stem (the engine folds case
      and ё, and stems words): the typed word equal to it, else the one it begins. */
  function typedWord(word, query) {
    const fold = (w) => w.toLocaleLowerCase("ru").replaceAll("ё", "е");
    const typed = String(query || "").split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
    return typed.find((w) => fold(w) === word) || typed.find((w) => fold(w).startsWith(word)) || word;
  }

  /** Reasons for a hit in Russian, from the structured answer: the matched query words with
      their fields (``matches``), then the other reasons of ``why`` translated. The English
      "words: <stem> in <fields>" text is not shown: its stems are index terms, not words. */
  function whyOf(item, query) {
    const out = [];
    const matches = Array.isArray(item.matches) ? item.matches : [];
    if (matches.length) {
      out.push("слова: " + matches.map((m) => `«${typedWord(m.word, query)}» в ` +
        [].concat(m.fields || []).map((f) => FIELD_RU[f] || f).join(", ")).join("; "));
    }
    const why = item.why ?? item.reason ?? item.reasons;
    if (why === undefined || why === null) return out;
    // "words: a in name; b in synonym; alias «x»": the words part (all its pieces) is replaced
    // by the structured line above when there is one
    const list = Array.isArray(why) ? why : String(why).split(/;\s+(?=\S)/);
    let inWords = false;
    for (const w of list) {
      if (typeof w !== "string") { out.push(String(w)); continue; }
      if (/^words: /u.test(w)) { inWords = true; if (!matches.length) out.push(wordsRu(w.slice(7), query)); continue; }
      if (inWords && /^\S+ in [\p{L}_]/u.test(w)) { if (!matches.length) out.push(wordsRu(w, query)); continue; }
      inWords = false;
      out.push(reasonRu(w, query));
    }
    return out;
  }

  /** An older answer without ``matches``: "<term> in <fields>" said in Russian. */
  function wordsRu(part, query) {
    const m = part.match(/^(\S+) in (.+)$/u);
    if (!m) return part;
    return `слова: «${typedWord(m[1], query)}» в ` + m[2].split(/,\s*/).map((f) => FIELD_RU[f] || f).join(", ");
  }

  const KIND_RU = {
    Catalog: "Справочник", Document: "Документ", Enum: "Перечисление", InformationRegister: "Регистр сведений",
    AccumulationRegister: "Регистр накопления", AccountingRegister: "Регистр бухгалтерии",
    CalculationRegister: "Регистр расчёта", ChartOfCharacteristicTypes: "План видов характеристик",
    ChartOfAccounts: "План счетов", ChartOfCalculationTypes: "План видов расчёта", ExchangePlan: "План обмена",
    BusinessProcess: "Бизнес-процесс", Task: "Задача", CommonModule: "Общий модуль", Constant: "Константа",
    DocumentJournal: "Журнал документов", Report: "Отчёт", DataProcessor: "Обработка",
    DefinedType: "Определяемый тип", Subsystem: "Подсистема", Role: "Роль", SessionParameter: "Параметр сеанса",
    CommonForm: "Общая форма", CommonTemplate: "Общий макет", CommonPicture: "Общая картинка",
    CommonAttribute: "Общий реквизит", CommonCommand: "Общая команда", ScheduledJob: "Регламентное задание",
    EventSubscription: "Подписка на событие", FunctionalOption: "Функциональная опция", HTTPService: "HTTP-сервис",
    WebService: "Web-сервис", FilterCriterion: "Критерий отбора", SettingsStorage: "Хранилище настроек",
    type: "тип", method: "метод", property: "свойство", event: "событие", constructor: "конструктор",
    global_method: "метод глобального контекста", global_property: "свойство глобального контекста",
    function: "функция", keyword: "ключевое слово", operator: "оператор", enum: "системное перечисление",
    enum_value: "значение перечисления", article: "статья",
  };

  function kindLabel(kind) {
    return KIND_RU[kind] || kind || "?";
  }

  function configsFrom(bundleFacts) {
    return (bundleFacts && bundleFacts.configs) || [];
  }

  function configSelect(configs, selected, attrs) {
    const select = el("select", Object.assign({ name: "config" }, attrs || {}));
    if (configs.length !== 1) select.append(el("option", { value: "", text: configs.length ? "— конфигурация —" : "(нет конфигураций)" }));
    for (const c of configs) select.append(el("option", { value: c, text: c, selected: c === selected || configs.length === 1 }));
    return select;
  }

  function formatAge(seconds) {
    if (seconds === null || seconds === undefined) return "?";
    if (seconds < 90) return `${seconds} с`;
    if (seconds < 5400) return `${Math.round(seconds / 60)} мин`;
    if (seconds < 172800) return `${Math.round(seconds / 3600)} ч`;
    return `${Math.round(seconds / 86400)} дн`;
  }

  return { session, el, params, url, api, getJson, outcomeBadge, errorBox, setStatus, linkify, markdown,
    agentText, inline, kindLabel, hitsOf, nameOf, whyOf, firstArray, configsFrom, configSelect, formatAge, cardUrl };
})();
