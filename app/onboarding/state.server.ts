// Reading and saving the checklist's state. Each change is a compare-and-set on the stored text, so two
// steps saved at once (two tabs) both stay saved.
import type { Db } from "../db.server";
import { isUniqueViolation } from "../db.server";
import { parseOnboarding, type OnboardingState, type OnboardingStep } from "./state";

const MAX_CONFLICTS = 10;

export async function loadOnboarding(db: Db, shop: string): Promise<OnboardingState> {
  const row = await db.shopSettings.findUnique({ where: { shop }, select: { onboarding: true } });
  return parseOnboarding(row?.onboarding);
}

/** Applies `change` to the shop's state and stores it; answers the state saved. */
export async function updateOnboarding(
  db: Db,
  shop: string,
  change: (state: OnboardingState) => OnboardingState,
): Promise<OnboardingState> {
  for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
    const row = await db.shopSettings.findUnique({ where: { shop }, select: { onboarding: true } });
    const next = change(parseOnboarding(row?.onboarding));
    const stored = JSON.stringify(next);
    if (!row) {
      try {
        await db.shopSettings.create({ data: { shop, onboarding: stored } });
        return next;
      } catch (error) {
        if (isUniqueViolation(error)) continue;
        throw error;
      }
    }
    const { count } = await db.shopSettings.updateMany({
      where: { shop, onboarding: row.onboarding },
      data: { onboarding: stored },
    });
    if (count === 1) return next;
  }
  throw new Error(`the onboarding state of ${shop} kept changing under ${MAX_CONFLICTS} attempts to save it`);
}

export function markStepDone(db: Db, shop: string, step: OnboardingStep, at: Date) {
  return updateOnboarding(db, shop, (state) => ({
    ...state,
    steps: { ...state.steps, [step]: at.toISOString() },
  }));
}

export function finishOnboarding(db: Db, shop: string, at: Date) {
  return updateOnboarding(db, shop, (state) => ({ ...state, finishedAt: at.toISOString() }));
}

export function postponeOnboarding(db: Db, shop: string, at: Date) {
  return updateOnboarding(db, shop, (state) => ({ ...state, postponedAt: at.toISOString() }));
}

/** Back to the checklist from the dashboard: the steps done stay done. */
export function reopenOnboarding(db: Db, shop: string) {
  return updateOnboarding(db, shop, ({ finishedAt: _finished, postponedAt: _postponed, ...state }) => state);
}

export function recordConnectionChecked(db: Db, shop: string, at: Date) {
  return updateOnboarding(db, shop, (state) => ({ ...state, connectionCheckedAt: at.toISOString() }));
}
