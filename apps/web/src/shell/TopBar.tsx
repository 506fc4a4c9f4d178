import type { Ref } from 'react';
import { Link } from 'react-router-dom';
import { Tooltip } from 'radix-ui';
import { Menu, Vault } from 'lucide-react';
import type { UserProfile } from '@lv/contracts';
import { Button, buttonClasses } from '../components/ui/button.js';
import { AvatarMenu } from './AvatarMenu.js';
import { ThemeSwitch } from './ThemeSwitch.js';

interface TopBarProps {
  user: UserProfile | null;
  menuOpen: boolean;
  onOpenMenu: () => void;
  showUnsaved: boolean;
  onLogout: () => void;
  /** The menu toggle, so the side menu can hand focus back to it when it closes. */
  menuButtonRef?: Ref<HTMLButtonElement>;
}

/** The fixed top bar: menu toggle, logo, unsaved indicator, theme switch, Login or the avatar menu. */
export function TopBar({ user, menuOpen, onOpenMenu, showUnsaved, onLogout, menuButtonRef }: TopBarProps) {
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-16 border-b border-border bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-full max-w-6xl items-center gap-2 px-3 sm:gap-3 sm:px-5">
        <Tooltip.Root>
          <Tooltip.Trigger asChild>
            <Button ref={menuButtonRef} variant="ghost" size="icon" aria-label="Open menu" aria-haspopup="dialog" aria-expanded={menuOpen} onClick={onOpenMenu}>
              <Menu aria-hidden="true" className="h-5 w-5" />
            </Button>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content sideOffset={6} className="z-50 rounded-md bg-foreground px-2 py-1 text-xs text-background shadow">
              Menu
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>

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

        <ThemeSwitch />

        {user ? (
          <AvatarMenu user={user} onLogout={onLogout} />
        ) : (
          <Link to="/login" className={buttonClasses({ size: 'sm' })}>
            Login
          </Link>
        )}
      </div>
    </header>
  );
}
