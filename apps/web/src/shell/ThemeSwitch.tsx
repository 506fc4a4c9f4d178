import { DropdownMenu, Tooltip } from 'radix-ui';
import { Check, Monitor, Moon, Sun } from 'lucide-react';
import { useTheme } from '../theme/ThemeProvider.js';
import { parseTheme } from '../theme/theme.js';
import { ThemeButton } from './TopBarLayout.js';

const OPTIONS = [
  { value: 'light', label: 'Light', Icon: Sun },
  { value: 'dark', label: 'Dark', Icon: Moon },
  { value: 'system', label: 'System', Icon: Monitor },
] as const;

/** Top-bar theme control: a menu of Light / Dark / System (accessible name "Theme"). */
export function ThemeSwitch() {
  const { theme, setTheme } = useTheme();
  return (
    <DropdownMenu.Root modal={false}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <DropdownMenu.Trigger asChild>
            <ThemeButton />
          </DropdownMenu.Trigger>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content sideOffset={6} className="z-50 rounded-md bg-foreground px-2 py-1 text-xs text-background shadow">
            Change theme
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-40 rounded-xl border border-border bg-card p-1 text-card-foreground shadow-lg"
        >
          <DropdownMenu.RadioGroup value={theme} onValueChange={(value) => setTheme(parseTheme(value))}>
            {OPTIONS.map(({ value, label, Icon }) => (
              <DropdownMenu.RadioItem
                key={value}
                value={value}
                className="flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm outline-none select-none data-[highlighted]:bg-muted"
              >
                <Icon aria-hidden="true" className="h-4 w-4" />
                <span className="flex-1">{label}</span>
                <DropdownMenu.ItemIndicator>
                  <Check aria-hidden="true" className="h-4 w-4 text-primary" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
