import { forwardRef, type ButtonHTMLAttributes, type ReactNode, type Ref } from 'react';
import { Link } from 'react-router-dom';
import { Menu, Monitor, Moon, Sun, Vault } from 'lucide-react';
import type { UserProfile } from '@lv/contracts';
import { Button, buttonClasses } from '../components/ui/button.js';
import { useTheme } from '../theme/ThemeProvider.js';

export interface TopBarProps {
  user: UserProfile | null;
  menuOpen: boolean;
  onOpenMenu: () => void;
  showUnsaved: boolean;
  onLogout: () => void;
  /** The menu toggle, so the side menu can hand focus back to it when it closes. */
  menuButtonRef?: Ref<HTMLButtonElement>;
  /** The session is still loading on a page that needs one: neither Login nor the avatar yet. */
  accountPending?: boolean;
}

/** The controls the top bar places: plain buttons first, the same buttons with their menus once loaded. */
export interface TopBarControls {
  menuButton: ReactNode;
  themeSwitch: ReactNode;
  /** The signed-in user's menu (shown only with a user; otherwise the Login link). */
  account: ReactNode;
}

/** The fixed top bar: menu toggle, logo, unsaved indicator, theme switch, Login or the avatar menu. */
export function TopBarLayout({ user, showUnsaved, accountPending, controls }: Pick<TopBarProps, 'user' | 'showUnsaved' | 'accountPending'> & { controls: TopBarControls }) {
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-16 border-b border-border bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-full max-w-6xl items-center gap-2 px-3 sm:gap-3 sm:px-5">
        {controls.menuButton}

        <Link to="/" className="flex items-center gap-2 rounded-lg px-1 py-1 focus-visible:outline-2 focus-visible:outline-ring">
          <span aria-hidden="true" className="grid h-8 w-8 place-items-center rounded-lg bg-primary text-primary-foreground">
            <Vault className="h-4.5 w-4.5" />
          </span>
          <span className="font-serif text-lg font-semibold tracking-tight">Legacy Vault</span>
        </Link>

        <div className="flex-1" />

        <div role="status" aria-live="polite" className="flex items-center">
          {showUnsaved ? (
            <span className="flex items-center gap-2 rounded-full bg-primary/12 px-3 py-1 text-xs font-medium text-primary">
              <span aria-hidden="true" className="relative flex h-2.5 w-2.5">
                <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-primary opacity-60" />
                <span className="relative inline-flex h-2.5 w-2.5 animate-pulse rounded-full bg-primary" />
              </span>
              <span className="sr-only sm:not-sr-only">Unsaved changes</span>
            </span>
          ) : null}
        </div>

        {controls.themeSwitch}

        {user ? (
          controls.account
        ) : accountPending ? (
          // The avatar's room, so nothing moves when it arrives.
          <span aria-hidden="true" className="h-10 w-10" />
        ) : (
          <Link to="/login" className={buttonClasses({ size: 'sm' })}>
            Login
          </Link>
        )}
      </div>
    </header>
  );
}

type ButtonAttributes = ButtonHTMLAttributes<HTMLButtonElement>;

/** "Open menu" (the side menu is a dialog). */
export const MenuButton = forwardRef<HTMLButtonElement, ButtonAttributes & { menuOpen: boolean }>(function MenuButton({ menuOpen, ...props }, ref) {
  return (
    <Button ref={ref} variant="ghost" size="icon" aria-label="Open menu" aria-haspopup="dialog" aria-expanded={menuOpen} {...props}>
      <Menu aria-hidden="true" className="h-5 w-5" />
    </Button>
  );
});

/** The theme menu's trigger (accessible name "Theme"), showing the current choice. */
export const ThemeButton = forwardRef<HTMLButtonElement, ButtonAttributes>(function ThemeButton(props, ref) {
  const { theme, resolvedTheme } = useTheme();
  const TriggerIcon = theme === 'system' ? Monitor : resolvedTheme === 'dark' ? Moon : Sun;
  return (
    <Button ref={ref} variant="ghost" size="icon" aria-label="Theme" {...props}>
      <TriggerIcon aria-hidden="true" className="h-5 w-5" />
    </Button>
  );
});

/** The account menu's trigger (accessible name "Account menu") around the user's avatar. */
export const AccountButton = forwardRef<HTMLButtonElement, ButtonAttributes>(function AccountButton({ children, ...props }, ref) {
  return (
    <button
      ref={ref}
      type="button"
      aria-label="Account menu"
      className="rounded-full p-0.5 transition hover:ring-2 hover:ring-primary/30 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      {...props}
    >
      {children}
    </button>
  );
});
