// Sklad Sync branch picker: the buyer chooses the delivery type, the city and the Nova Poshta branch or parcel
// locker (or the courier's address, or the Ukrposhta postcode); the choice is saved as cart attributes through
// the theme's /cart/update.js. Cities and branches come from the app through the app proxy. The city and
// branch fields follow the WAI-ARIA combobox pattern (list autocomplete).
//
// This is the readable source. The theme app extension ships its minified build,
// extensions/branch-picker/assets/branch-picker.js, made by `npm run build:picker`: Shopify refuses an app
// block whose script is over 10 KB. test/reference/branch-picker-extension.test.ts fails when the shipped
// file is not the build of this one. Plain JavaScript for today's browsers, no imports.
(() => {
  "use strict";
  if (window.skladBranchPicker) return;
  window.skladBranchPicker = true;

  // The cart attributes the app's order mapping reads: app/reference/cart-attributes.ts.
  const ATTRIBUTES = {
    type: "_delivery_type",
    cityRef: "_np_city_ref",
    cityLabel: "_np_city_label",
    warehouseRef: "_np_warehouse_ref",
    warehouseLabel: "_np_warehouse_label",
    street: "_courier_street",
    streetRef: "_courier_street_ref",
    house: "_courier_house",
    flat: "_courier_flat",
    postcode: "_ukrposhta_postcode",
  };
  const TYPES = ["branch", "postomat", "ukrposhta", "courier"];
  const DEBOUNCE_MS = 250;
  const DEFAULT_PROXY = "/apps/sklad-sync";
  const POSTCODE = /^\d{5}$/;
  const RETRIES = 4;
  const MAX_RETRY_WAIT_S = 10;

  // Retry-After as seconds or as a date; null when absent or unreadable.
  function retryAfterSeconds(value) {
    if (value === null || value.trim() === "") return null;
    const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
    return Number.isNaN(seconds) ? null : Math.max(seconds, 0);
  }

  function fill(template, values) {
    return template.replace(/\[(\w+)\]/g, (whole, name) => (name in values ? String(values[name]) : whole));
  }

  function init(root) {
    const config = JSON.parse(root.querySelector("[data-sklad-bp-config]").textContent);
    const strings = config.strings;
    // A path on the shop's own domain only: the block setting is free text.
    const proxy = /^\/(?!\/)[\w\-/]+$/.test(config.proxy || "")
      ? config.proxy.replace(/\/+$/, "")
      : DEFAULT_PROXY;
    const plural = new Intl.PluralRules(config.locale || "en");
    const live = root.querySelector("[data-live]");
    const part = (name) => root.querySelector(`[data-part="${name}"]`);
    const radios = [...root.querySelectorAll('input[type="radio"]')];
    const courierInputs = [...root.querySelectorAll("[data-courier]")];
    const postcodeInput = root.querySelector("[data-postcode]");
    const postcodeError = root.querySelector("[data-postcode-error]");
    const branchLabel = root.querySelector("[data-branch-label]");

    const saved = config.attributes || {};
    const state = {
      type: TYPES.includes(saved[ATTRIBUTES.type]) ? saved[ATTRIBUTES.type] : "",
      city:
        saved[ATTRIBUTES.cityRef] || saved[ATTRIBUTES.cityLabel]
          ? { ref: saved[ATTRIBUTES.cityRef] || "", label: saved[ATTRIBUTES.cityLabel] || "" }
          : null,
      branch:
        saved[ATTRIBUTES.warehouseRef] || saved[ATTRIBUTES.warehouseLabel]
          ? { ref: saved[ATTRIBUTES.warehouseRef] || "", label: saved[ATTRIBUTES.warehouseLabel] || "" }
          : null,
      street: saved[ATTRIBUTES.street] || "",
      house: saved[ATTRIBUTES.house] || "",
      flat: saved[ATTRIBUTES.flat] || "",
      postcode: saved[ATTRIBUTES.postcode] || "",
      // Without the app's list (no data yet, or the search failing) the buyer's words are saved as typed.
      freeText: false,
    };

    function announce(message) {
      // Emptied first so the same words twice are announced twice.
      live.textContent = "";
      window.setTimeout(() => {
        live.textContent = message;
      }, 50);
    }

    function attributes() {
      const values = Object.fromEntries(Object.values(ATTRIBUTES).map((name) => [name, ""]));
      values[ATTRIBUTES.type] = state.type;
      const usesCity = state.type === "branch" || state.type === "postomat" || state.type === "courier";
      if (usesCity && state.city) {
        values[ATTRIBUTES.cityRef] = state.city.ref;
        values[ATTRIBUTES.cityLabel] = state.city.label;
      }
      if ((state.type === "branch" || state.type === "postomat") && state.branch) {
        values[ATTRIBUTES.warehouseRef] = state.branch.ref;
        values[ATTRIBUTES.warehouseLabel] = state.branch.label;
      }
      if (state.type === "courier") {
        values[ATTRIBUTES.street] = state.street;
        values[ATTRIBUTES.house] = state.house;
        values[ATTRIBUTES.flat] = state.flat;
      }
      if (state.type === "ukrposhta" && POSTCODE.test(state.postcode)) {
        values[ATTRIBUTES.postcode] = state.postcode;
      }
      return values;
    }

    function choiceText() {
      const words = [strings.types[state.type]];
      if (state.type === "ukrposhta") words.push(state.postcode);
      else {
        if (state.city) words.push(state.city.label);
        if (state.type === "courier")
          words.push([state.street, state.house, state.flat].filter(Boolean).join(" "));
        else if (state.branch) words.push(state.branch.label);
      }
      return words.filter(Boolean).join(", ");
    }

    // Saves are chained: a later choice is never overwritten by an earlier save finishing last.
    let saving = Promise.resolve();
    function save(announceIt) {
      const body = JSON.stringify({ attributes: attributes() });
      saving = saving.then(async () => {
        try {
          const response = await fetch(config.cartUpdate, {
            method: "POST",
            headers: { "Content-Type": "application/json", Accept: "application/json" },
            body,
          });
          if (!response.ok) throw new Error(`cart update answered ${response.status}`);
          root.dataset.saved = body;
          if (announceIt) announce(fill(strings.saved, { choice: choiceText() }));
        } catch {
          announce(strings.saveFailed);
        }
      });
      return saving;
    }

    // --- Search through the app proxy, debounced, the latest question only. ---
    // While the app cannot search yet (it is preparing the carrier's directory for the shop), it answers 202
    // (or 503) with Retry-After, and with 202 a message saying so, which the buyer hears: the question is
    // asked again after that many seconds (at least 1, at most MAX_RETRY_WAIT_S, longer each time), at most
    // RETRIES times, and given up when a newer question replaced it. After the last 503 the search counts as
    // failed; after the last 202 the list counts as not ready. Either way the buyer may type freely.
    const answers = new Map();
    async function ask(path, params, stillWanted) {
      const query = new URLSearchParams({ ...params, locale: config.locale || "en" });
      const url = `${proxy}/${path}?${query}`;
      if (answers.has(url)) return answers.get(url);
      for (let attempt = 0; ; attempt++) {
        const response = await fetch(url, { headers: { Accept: "application/json" } });
        const retryAfter = retryAfterSeconds(response.headers.get("Retry-After"));
        const waiting = response.status === 202 || response.status === 503;
        if (waiting && retryAfter !== null && attempt < RETRIES) {
          if (response.status === 202) {
            const said = await response.json().catch(() => ({}));
            if (said.message && stillWanted()) announce(said.message);
          }
          const seconds = Math.min(Math.max(retryAfter, 1) * 2 ** attempt, MAX_RETRY_WAIT_S);
          await new Promise((resolve) => window.setTimeout(resolve, seconds * 1000));
          if (!stillWanted()) return { stale: true };
          continue;
        }
        if (!response.ok) throw new Error(`${path} answered ${response.status}`);
        const answer = await response.json();
        // "Not ready" is not kept: the next question asks again.
        if (answer.ready === false) return answer;
        if (answers.size > 100) answers.clear();
        answers.set(url, answer);
        return answer;
      }
    }

    function combobox(input, { search, chosen, describe, current }) {
      const list = document.getElementById(input.getAttribute("aria-controls"));
      let options = [];
      let active = -1;
      let timer = 0;
      let asked = 0;

      // Closing (Escape, a choice, Tab, leaving the field) also drops the search that is waiting or out: its
      // answer, coming later, would open the list again under the buyer.
      function close() {
        window.clearTimeout(timer);
        asked++;
        list.hidden = true;
        input.setAttribute("aria-expanded", "false");
        input.removeAttribute("aria-activedescendant");
        active = -1;
      }
      function highlight(index) {
        const items = list.children;
        if (items[active]) items[active].setAttribute("aria-selected", "false");
        active = index;
        if (index < 0 || !items[index]) {
          input.removeAttribute("aria-activedescendant");
          return;
        }
        items[index].setAttribute("aria-selected", "true");
        input.setAttribute("aria-activedescendant", items[index].id);
        items[index].scrollIntoView({ block: "nearest" });
      }
      function show(found, counts) {
        options = found;
        list.replaceChildren(
          ...found.map((option, index) => {
            const item = document.createElement("li");
            item.id = `${list.id}-${index}`;
            item.setAttribute("role", "option");
            item.setAttribute("aria-selected", "false");
            item.className = "sklad-bp__option";
            item.textContent = describe(option);
            // Chosen on mousedown, before the input's blur closes the list.
            item.addEventListener("mousedown", (event) => {
              event.preventDefault();
              choose(index);
            });
            return item;
          }),
        );
        active = -1;
        input.removeAttribute("aria-activedescendant");
        const open = found.length > 0;
        list.hidden = !open;
        input.setAttribute("aria-expanded", String(open));
        if (counts) {
          announce(
            found.length
              ? fill(counts[plural.select(found.length)] || counts.other, { count: found.length })
              : strings.nothingFound,
          );
        }
      }
      function choose(index) {
        const option = options[index];
        if (!option) return;
        input.value = describe(option);
        close();
        chosen(option);
      }
      async function run(text) {
        const mine = ++asked;
        try {
          const result = await search(text, () => mine === asked);
          if (mine !== asked || result.stale) return;
          if (result.ready === false) {
            state.freeText = true;
            show([], null);
            announce(result.message || strings.freeText);
            return;
          }
          show(result.options, result.counts);
        } catch {
          if (mine !== asked) return;
          state.freeText = true;
          show([], null);
          announce(strings.searchFailed);
        }
      }

      input.addEventListener("input", () => {
        window.clearTimeout(timer);
        timer = window.setTimeout(() => void run(input.value.trim()), DEBOUNCE_MS);
      });
      input.addEventListener("keydown", (event) => {
        const open = !list.hidden && options.length > 0;
        switch (event.key) {
          case "ArrowDown":
            event.preventDefault();
            if (!open) {
              window.clearTimeout(timer);
              void run(input.value.trim()).then(() => {
                if (options.length) highlight(0);
              });
            } else highlight((active + 1) % options.length);
            break;
          case "ArrowUp":
            if (!open) break;
            event.preventDefault();
            highlight(active <= 0 ? options.length - 1 : active - 1);
            break;
          case "Enter":
            // Never the surrounding cart form's submit from here.
            event.preventDefault();
            if (open && active >= 0) choose(active);
            else if (state.freeText) input.dispatchEvent(new Event("change"));
            break;
          case "Escape":
            if (open) {
              event.preventDefault();
              close();
            }
            break;
          case "Tab":
            close();
            break;
          default:
        }
      });
      // Words typed but not chosen from the list are not the choice: the field shows the choice again.
      input.addEventListener("blur", () => {
        close();
        if (!state.freeText) input.value = current();
      });
      return { close, show };
    }

    // --- The parts. ---
    const cityInput = root.querySelector('[data-combobox="city"]');
    const branchInput = root.querySelector('[data-combobox="branch"]');

    combobox(cityInput, {
      async search(text, stillWanted) {
        if (!text) return { options: [], counts: null };
        const answer = await ask("cities", { q: text.slice(0, 100), limit: "10" }, stillWanted);
        return answer.ready === false || answer.stale
          ? answer
          : { options: answer.cities, counts: strings.citiesFound };
      },
      describe: (city) => city.label,
      current: () => (state.city ? state.city.label : ""),
      chosen(city) {
        state.city = { ref: city.ref, label: city.label };
        state.branch = null;
        branchInput.value = "";
        update();
        void save(true);
      },
    });

    combobox(branchInput, {
      async search(text, stillWanted) {
        if (!state.city || !state.city.ref) return { options: [], counts: null };
        const params = {
          city: state.city.ref,
          kind: state.type === "postomat" ? "postomat" : "branch",
          limit: "20",
        };
        if (text) params.q = text.slice(0, 100);
        const answer = await ask("branches", params, stillWanted);
        return answer.ready === false || answer.stale
          ? answer
          : { options: answer.branches, counts: strings.branchesFound };
      },
      describe: (branch) => branch.label,
      current: () => (state.branch ? state.branch.label : ""),
      chosen(branch) {
        state.branch = { ref: branch.ref, label: branch.label };
        void save(true);
      },
    });

    // Typed words count only where the list is unavailable: then the label is saved without a Ref.
    cityInput.addEventListener("change", () => {
      if (!state.freeText) return;
      const label = cityInput.value.trim().slice(0, 100);
      state.city = label ? { ref: "", label } : null;
      update();
      void save(Boolean(label));
    });
    branchInput.addEventListener("change", () => {
      if (!state.freeText) return;
      const label = branchInput.value.trim().slice(0, 200);
      state.branch = label ? { ref: "", label } : null;
      void save(Boolean(label));
    });

    for (const input of courierInputs) {
      input.value = state[input.dataset.courier];
      input.addEventListener("change", () => {
        state[input.dataset.courier] = input.value.trim().slice(0, 100);
        void save(Boolean(state.city && state.street && state.house));
      });
    }

    postcodeInput.value = state.postcode;
    postcodeInput.addEventListener("change", () => {
      const value = postcodeInput.value.trim();
      const valid = POSTCODE.test(value);
      postcodeInput.setAttribute("aria-invalid", String(!valid));
      postcodeError.textContent = valid ? "" : strings.postcodeInvalid;
      state.postcode = valid ? value : "";
      void save(valid);
    });
    postcodeInput.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        postcodeInput.dispatchEvent(new Event("change"));
      }
    });

    for (const radio of radios) {
      radio.checked = radio.value === state.type;
      radio.addEventListener("change", () => {
        if (!radio.checked) return;
        const wasLocker = state.type === "postomat";
        state.type = radio.value;
        // A branch is not a parcel locker: the other kind's choice is dropped.
        if (wasLocker !== (state.type === "postomat")) {
          state.branch = null;
          branchInput.value = "";
        }
        update();
        void save(false);
      });
    }

    // Shows the parts the delivery type needs.
    function update() {
      const type = state.type;
      part("city").hidden = !(type === "branch" || type === "postomat" || type === "courier");
      part("branch").hidden = !(type === "branch" || type === "postomat");
      part("courier").hidden = type !== "courier";
      part("ukrposhta").hidden = type !== "ukrposhta";
      branchLabel.textContent = strings.branchLabel[type === "postomat" ? "postomat" : "branch"];
      branchInput.disabled = !state.city;
    }

    cityInput.value = state.city ? state.city.label : "";
    branchInput.value = state.branch ? state.branch.label : "";
    update();
    root.dataset.ready = "true";
  }

  const start = () => {
    for (const root of document.querySelectorAll("[data-sklad-branch-picker]")) {
      if (!root.dataset.ready) init(root);
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
