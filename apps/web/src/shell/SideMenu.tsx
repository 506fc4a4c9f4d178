import { useId, type ComponentType, type RefObject } from 'react';
import { Dialog } from 'radix-ui';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import {
  BookOpen,
  Clock,
  HeartHandshake,
  House,
  KeyRound,
  LifeBuoy,
  Lock,
  Mail,
  PenLine,
  Scale,
  Settings,
  Sparkles,
  UserRound,
  Video,
  X,
} from 'lucide-react';
import type { UserProfile } from '@lv/contracts';
import { cn } from '../lib/cn.js';
import { pendingRequestsLabel, usePendingRequestCount } from './use-pending-count.js';
import { entryState, isEntryActive, MEMBER_ENTRIES, PUBLIC_ENTRIES, staggerDelay, type MenuEntry } from './menu-items.js';

type IconType = ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;

const ICONS: Record<string, IconType> = {
  '/': House,
  '/how-it-works': BookOpen,
  '/request': Mail,
  '/vault': Lock,
  '/record': Video,
  '/letters': PenLine,
  '/whoiam': UserRound,
  '/timeline': Clock,
  '/parent-community': HeartHandshake,
  '/court-journal': Scale,
  '/if-im-not-there': LifeBuoy,
  '/access-control': KeyRound,
  '/settings': Settings,
};

const rowClass =
  'animate-menu-item-in flex w-full items-center gap-3 rounded-xl px-3 py-2.5 text-[0.95rem] transition-colors ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring';

interface SideMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: UserProfile | null;
  /** Where focus goes when the menu closes (the toggle that opened it). */
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/** Slide-in navigation from the left, over an overlay (a modal dialog titled "Legacy Vault"). */
export function SideMenu({ open, onOpenChange, user, returnFocusRef }: SideMenuProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // Access requests waiting for the owner: asked each time the menu opens (never when signed out).
  const pending = usePendingRequestCount(user?.id ?? null, open);
  const pendingId = useId();

  const go = (to: string) => {
    onOpenChange(false);
    void navigate(to);
  };

  const renderEntry = (entry: MenuEntry, index: number) => {
    const state = entryState(entry, user);
    const active = isEntryActive(entry, pathname);
    const Icon = ICONS[entry.to] ?? Sparkles;
    const style = { animationDelay: staggerDelay(index) };

    if (state.kind === 'disabled') {
      return (
        <li key={entry.to}>
          <a role="link" aria-disabled="true" style={style} className={cn(rowClass, 'cursor-not-allowed text-muted-foreground/60')}>
            <Icon aria-hidden="true" className="h-5 w-5" />
            <span>{entry.label}</span>
          </a>
        </li>
      );
    }

    const target = state.to;
    const badge = entry.to === '/access-control' && pending ? pending : null;
    return (
      <li key={entry.to}>
        <Link
          to={target}
          aria-current={active ? 'page' : undefined}
          aria-describedby={badge ? pendingId : undefined}
          style={style}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
            event.preventDefault();
            go(target);
          }}
          className={cn(
            rowClass,
            active ? 'bg-primary/12 font-semibold text-primary' : 'text-foreground hover:bg-muted',
          )}
        >
          <Icon aria-hidden="true" className="h-5 w-5" />
          <span className="flex-1">{entry.label}</span>
          {state.kind === 'upgrade' ? (
            <span className="rounded-full bg-primary/15 px-2 py-0.5 text-xs font-semibold text-primary">Upgrade</span>
          ) : null}
          {badge ? (
            <span
              data-testid="pending-requests-badge"
              aria-hidden="true"
              title={pendingRequestsLabel(badge)}
              className="min-w-6 rounded-full bg-primary px-2 py-0.5 text-center text-xs font-semibold text-primary-foreground"
            >
              {badge}
            </span>
          ) : null}
        </Link>
        {badge ? (
          <span id={pendingId} hidden>
            {pendingRequestsLabel(badge)}
          </span>
        ) : null}
      </li>
    );
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay
          data-testid="side-menu-overlay"
          className="fixed inset-0 z-50 bg-overlay data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in"
        />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            if (!returnFocusRef?.current) return;
            event.preventDefault();
            returnFocusRef.current.focus();
          }}
          className={cn(
            'fixed inset-y-0 left-0 z-50 flex w-64 max-w-[85vw] flex-col border-r border-border bg-background shadow-xl',
            'data-[state=closed]:animate-slide-out-left data-[state=open]:animate-slide-in-left',
          )}
        >
          <div className="flex h-16 items-center justify-between border-b border-border px-4">
            <Dialog.Title className="font-serif text-lg font-semibold">Legacy Vault</Dialog.Title>
            <Dialog.Close
              aria-label="Close menu"
              className="grid h-9 w-9 place-items-center rounded-lg hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
            >
              <X aria-hidden="true" className="h-5 w-5" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">Site navigation</Dialog.Description>
          <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
            <ul className="flex flex-col gap-0.5">{PUBLIC_ENTRIES.map((entry, i) => renderEntry(entry, i))}</ul>
            <div className="my-3 border-t border-border" />
            {!user ? (
              <p className="animate-menu-item-in px-3 pb-2 text-xs text-muted-foreground" style={{ animationDelay: staggerDelay(PUBLIC_ENTRIES.length) }}>
                Sign in to open these parts of your vault.
              </p>
            ) : null}
            <ul className="flex flex-col gap-0.5">
              {MEMBER_ENTRIES.map((entry, i) => renderEntry(entry, PUBLIC_ENTRIES.length + i))}
            </ul>
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
