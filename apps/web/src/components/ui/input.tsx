import { forwardRef, type InputHTMLAttributes, type LabelHTMLAttributes, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.js';
import { useHydrated } from '../../lib/use-hydrated.js';

const fieldBase =
  'w-full rounded-xl border border-border bg-card px-3.5 text-base text-foreground placeholder:text-muted-foreground/80 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring ' +
  'aria-invalid:border-destructive disabled:opacity-60';

// On a prerendered page a field is read-only until React owns it: what was typed before hydration
// would be wiped by the form's state (the login form once lost its e-mail that way). Plain renders are
// editable at once.
export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, ...props }, ref) {
  const hydrated = useHydrated();
  return <input ref={ref} className={cn(fieldBase, 'h-11', className)} {...props} readOnly={props.readOnly || !hydrated} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea({ className, ...props }, ref) {
  const hydrated = useHydrated();
  return <textarea ref={ref} className={cn(fieldBase, 'min-h-32 py-3 leading-relaxed', className)} {...props} readOnly={props.readOnly || !hydrated} />;
});

export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select({ className, ...props }, ref) {
  return <select ref={ref} className={cn(fieldBase, 'h-11 px-3', className)} {...props} />;
});

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn('text-sm font-medium text-foreground', className)} {...props} />;
}
