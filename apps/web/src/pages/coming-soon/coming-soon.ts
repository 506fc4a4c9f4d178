/**
 * Screens the menu, the vault home and the landing page already link to, whose issues are still to
 * come. Until one is built its path shows what it will be, never "Page not found": a parent who taps
 * "Settings" learns it is on its way, not that something is broken. Remove an entry when its
 * page lands (routes.tsx gives the built page precedence anyway).
 */
export interface ComingScreen {
  path: string;
  title: string;
  /** What the screen will let a parent do, in a sentence. */
  promise: string;
}

export const COMING_SCREENS: readonly ComingScreen[] = [
];
