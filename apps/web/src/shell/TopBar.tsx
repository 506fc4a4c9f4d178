import { lazy, Suspense } from 'react';
import { useHydrated } from '../lib/use-hydrated.js';
import { getInitials } from './initials.js';
import { AccountButton, MenuButton, ThemeButton, TopBarLayout, type TopBarProps } from './TopBarLayout.js';

export type { TopBarProps } from './TopBarLayout.js';

/**
 * The top bar's menus and tooltips (Radix, with its positioning engine) are not needed for the first
 * paint: they load beside the page (issue 10, first load), and until they arrive the bar shows the
 * same buttons without them. The menu toggle works at once (the side menu is the shell's state); the
 * theme and account buttons say they are not ready yet (aria-disabled, looking the same) rather than
 * swallow a tap.
 */
const InteractiveTopBar = lazy(async () => ({ default: (await import('./TopBarMenus.js')).InteractiveTopBar }));

export function TopBar(props: TopBarProps) {
  // A prerendered page carries the plain bar and hydrating it renders the same; the menus follow.
  const hydrated = useHydrated();
  return <Suspense fallback={<PlainTopBar {...props} />}>{hydrated ? <InteractiveTopBar {...props} /> : <PlainTopBar {...props} />}</Suspense>;
}

function PlainTopBar({ user, menuOpen, onOpenMenu, showUnsaved, menuButtonRef, accountPending }: TopBarProps) {
  return (
    <TopBarLayout
      user={user}
      showUnsaved={showUnsaved}
      accountPending={accountPending}
      controls={{
        menuButton: <MenuButton ref={menuButtonRef} menuOpen={menuOpen} onClick={onOpenMenu} />,
        themeSwitch: <ThemeButton aria-haspopup="menu" aria-expanded={false} aria-disabled="true" className="aria-disabled:opacity-100" />,
        account: user ? (
          <AccountButton aria-haspopup="menu" aria-expanded={false} aria-disabled="true">
            <span className="inline-flex h-9 w-9 items-center justify-center overflow-hidden rounded-full bg-primary/15 align-middle">
              <span className="text-sm font-semibold text-primary" aria-hidden="true">
                {getInitials(user.full_name, user.email)}
              </span>
            </span>
          </AccountButton>
        ) : null,
      }}
    />
  );
}
