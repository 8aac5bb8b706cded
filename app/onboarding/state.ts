// The first-run checklist's state (ShopSettings.onboarding, JSON): when each step was last done, and
// whether the merchant finished the checklist or put it off. Each step is saved on its own, so a merchant
// can stop anywhere and come back; a stored value that does not parse reads as nothing done yet.
import { z } from "zod";

export const ONBOARDING_STEPS = [
  "connection",
  "location",
  "rules",
  "sender",
  "notifications",
  "catalogue",
] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

const instant = z.iso.datetime();

export const onboardingStateSchema = z.object({
  /** When each step was last saved (ISO instants). */
  steps: z.partialRecord(z.enum(ONBOARDING_STEPS), instant).default({}),
  /** The merchant marked the checklist done: the home page is the dashboard from then on. */
  finishedAt: instant.optional(),
  /** "Finish later": the dashboard is shown, with a reminder that the checklist waits. */
  postponedAt: instant.optional(),
  /** The last "Test connection" that the warehouse answered. */
  connectionCheckedAt: instant.optional(),
});
export type OnboardingState = z.infer<typeof onboardingStateSchema>;

export const EMPTY_ONBOARDING: OnboardingState = Object.freeze({ steps: {} });

export function parseOnboarding(stored: string | null | undefined): OnboardingState {
  if (!stored) return { steps: {} };
  try {
    const parsed = onboardingStateSchema.safeParse(JSON.parse(stored));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: read as nothing done.
  }
  return { steps: {} };
}

/** Whether the home page is the dashboard (finished, or put off) rather than the checklist. */
export function showsDashboard(state: OnboardingState): boolean {
  return Boolean(state.finishedAt ?? state.postponedAt);
}

/** The first step not yet done, the one the checklist opens. */
export function nextStep(state: OnboardingState): OnboardingStep | null {
  return ONBOARDING_STEPS.find((step) => !state.steps[step]) ?? null;
}
