import { Tooltip } from 'radix-ui';
import { AvatarMenu } from './AvatarMenu.js';
import { ThemeSwitch } from './ThemeSwitch.js';
import { MenuButton, TopBarLayout, type TopBarProps } from './TopBarLayout.js';

/** The top bar with its menus and tooltips (loaded after the first paint, see TopBar.tsx). */
export function InteractiveTopBar({ user, menuOpen, onOpenMenu, showUnsaved, onLogout, menuButtonRef, accountPending }: TopBarProps) {
  return (
    // Radix's tooltip timings are the spec's: 700 ms delay, 300 ms skip delay.
    <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
      <TopBarLayout
        user={user}
        showUnsaved={showUnsaved}
        accountPending={accountPending}
        controls={{
          menuButton: (
            <Tooltip.Root>
              <Tooltip.Trigger asChild>
                <MenuButton ref={menuButtonRef} menuOpen={menuOpen} onClick={onOpenMenu} />
              </Tooltip.Trigger>
              <Tooltip.Portal>
                <Tooltip.Content sideOffset={6} className="z-50 rounded-md bg-foreground px-2 py-1 text-xs text-background shadow">
                  Menu
                </Tooltip.Content>
              </Tooltip.Portal>
            </Tooltip.Root>
          ),
          themeSwitch: <ThemeSwitch />,
          account: user ? <AvatarMenu user={user} onLogout={onLogout} /> : null,
        }}
      />
    </Tooltip.Provider>
  );
}
