import { Avatar, DropdownMenu } from 'radix-ui';
import { LayoutDashboard, LogOut, UserRound } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import type { UserProfile } from '@lv/contracts';
import { isAdmin } from '../auth/route-access.js';
import { cn } from '../lib/cn.js';
import { getInitials } from './initials.js';
import { useAvatarSource } from './portrait-avatar.js';
import { AccountButton } from './TopBarLayout.js';

const itemClass =
  'flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 text-sm outline-none select-none data-[highlighted]:bg-muted';

export function UserAvatar({ user, className }: { user: UserProfile; className?: string }) {
  const source = useAvatarSource(user);
  return (
    <Avatar.Root className={cn('inline-flex h-9 w-9 items-center justify-center overflow-hidden rounded-full bg-primary/15 align-middle', className)}>
      {source ? <Avatar.Image src={source} alt="" className="h-full w-full object-cover" /> : null}
      <Avatar.Fallback delayMs={user.avatar_url ? 600 : 0} className="text-sm font-semibold text-primary" aria-hidden="true">
        {getInitials(user.full_name, user.email)}
      </Avatar.Fallback>
    </Avatar.Root>
  );
}

/** The signed-in user's menu in the top bar (trigger: "Account menu"). Closes on an outside click. */
export function AvatarMenu({ user, onLogout }: { user: UserProfile; onLogout: () => void }) {
  const navigate = useNavigate();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <AccountButton>
          <UserAvatar user={user} />
        </AccountButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 w-64 rounded-xl border border-border bg-card p-1.5 text-card-foreground shadow-lg"
        >
          <DropdownMenu.Label className="px-2.5 py-2">
            <p className="truncate text-sm font-semibold">{user.full_name?.trim() || 'User'}</p>
            <p className="truncate text-xs text-muted-foreground">{user.email}</p>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item className={itemClass} onSelect={() => void navigate('/settings')}>
            <UserRound aria-hidden="true" className="h-4 w-4" />
            Edit Profile
          </DropdownMenu.Item>
          {isAdmin(user) ? (
            <DropdownMenu.Item className={itemClass} onSelect={() => void navigate('/admin')}>
              <LayoutDashboard aria-hidden="true" className="h-4 w-4" />
              Admin Dashboard
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item className={cn(itemClass, 'text-destructive')} onSelect={onLogout}>
            <LogOut aria-hidden="true" className="h-4 w-4" />
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
