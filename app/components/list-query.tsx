// What the admin's lists (orders, returns, inbound deliveries) share: filters, search and page live in the
// URL, so a list can be linked, reloaded and gone back to; and the search box that keeps the other filters.
import { Form, useLocation, useNavigation, useSearchParams } from "@remix-run/react";
import { Button, TextField } from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import { MAX_SEARCH_LENGTH } from "../http/list-search";

/**
 * The last query asked for, shared by every part of the page that changes it (a list's filters, its
 * search box, its pagination). Only ever written in the browser, by an effect or a change.
 */
const lastAsked: { pathname: string; params: URLSearchParams | null } = { pathname: "", params: null };

/**
 * Changes some of the query's parameters (null removes one). Each change starts from the last one asked
 * for on the page, not from the URL this render read: the URL moves only once the list's data has loaded,
 * so two quick changes (two filters, or a filter and a search) would otherwise each drop the other.
 */
export function useQueryChange(): (changes: Record<string, string | null>) => void {
  const [searchParams, setSearchParams] = useSearchParams();
  const { pathname } = useLocation();
  // The router draws a loaded list in a transition, after the URL has moved; a change asked for in between
  // is already loading when this URL is drawn, and it, not this URL, is the last one asked for.
  const settled = useNavigation().state === "idle";
  useEffect(() => {
    if (!settled) return;
    lastAsked.pathname = pathname;
    lastAsked.params = searchParams;
  }, [pathname, searchParams, settled]);
  return useCallback(
    (changes) => {
      const from = lastAsked.pathname === pathname && lastAsked.params ? lastAsked.params : searchParams;
      const next = new URLSearchParams(from);
      for (const [name, value] of Object.entries(changes)) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
      lastAsked.pathname = pathname;
      lastAsked.params = next;
      setSearchParams(next);
    },
    [pathname, searchParams, setSearchParams],
  );
}

export interface ListSearchProps {
  /** The search as the list was loaded with it. */
  value: string;
  label: string;
  placeholder: string;
  submitLabel: string;
  /** The list's other filters, kept by a search (empty ones left out). */
  keep: Record<string, string | null | undefined>;
  onSubmit?: () => void;
}

/**
 * The search box of a list: a GET form that keeps the filters, so it works before the page's scripts run;
 * once they do, a search is a change of the query like the filters', starting from the last one asked for.
 */
export function ListSearch({ value, label, placeholder, submitLabel, keep, onSubmit }: ListSearchProps) {
  const navigation = useNavigation();
  const change = useQueryChange();
  const [search, setSearch] = useState(value);
  useEffect(() => setSearch(value), [value]);
  return (
    <Form
      method="get"
      onSubmit={(event) => {
        event.preventDefault();
        change({ search: search.trim() || null, page: null });
        onSubmit?.();
      }}
    >
      {Object.entries(keep).map(
        ([name, kept]) => kept && <input key={name} type="hidden" name={name} value={kept} />,
      )}
      <TextField
        label={label}
        labelHidden
        name="search"
        value={search}
        onChange={setSearch}
        placeholder={placeholder}
        autoComplete="off"
        maxLength={MAX_SEARCH_LENGTH}
        clearButton
        onClearButtonClick={() => change({ search: null, page: null })}
        connectedRight={
          <Button submit loading={navigation.state !== "idle" && navigation.formMethod === "GET"}>
            {submitLabel}
          </Button>
        }
      />
    </Form>
  );
}

/** IndexTable's pagination for a list whose page is in the URL (`page`, from 1). */
export function usePagination(list: { page: number; hasPrevious: boolean; hasNext: boolean }, label: string) {
  const change = useQueryChange();
  return {
    hasPrevious: list.hasPrevious,
    hasNext: list.hasNext,
    onPrevious: () => change({ page: String(list.page - 1) }),
    onNext: () => change({ page: String(list.page + 1) }),
    label,
  };
}
