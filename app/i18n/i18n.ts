// One i18next instance per language, made once: the resources are bundled and never change, so a request
// or a page needs no instance of its own, only the one of its language.
import { createInstance, type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LOCALE, type Locale } from "./locales";
import { NAMESPACES, resources } from "./resources";

const instances = new Map<Locale, I18n>();

export function i18nFor(locale: Locale): I18n {
  let instance = instances.get(locale);
  if (!instance) {
    instance = createInstance();
    void instance.use(initReactI18next).init({
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: Object.keys(resources),
      resources,
      ns: NAMESPACES,
      defaultNS: "common",
      // Synchronous: the resources are in memory, and the first render must already have its words.
      initAsync: false,
      // React escapes what it renders.
      interpolation: { escapeValue: false },
      returnNull: false,
      // No console advertisement from the library in the server's log or the browser's console.
      showSupportNotice: false,
    });
    instances.set(locale, instance);
  }
  return instance;
}
