import { forwardRef, useImperativeHandle, type ForwardedRef, useLayoutEffect, useRef, type InputHTMLAttributes, type LabelHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.js';
import { useHydrated } from '../../lib/use-hydrated.js';

const fieldBase =
  'w-full rounded-xl border border-border bg-card px-3.5 text-base text-foreground placeholder:text-muted-foreground/80 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring ' +
  'aria-invalid:border-destructive disabled:opacity-60';

/**
 * A prerendered page's fields take typing before React owns them (issue 35: a read-only field dropped
 * every key pressed before hydration). React leaves the typed text in the element when it hydrates, but
 * the form's state still holds the prerendered value, and the next render would put that back (the
 * login form once lost its e-mail that way). So, once hydrated, a controlled field whose text differs
 * from its value hands the text to the form as the input event it was. A plain render has nothing to do.
 */
function useTypedBeforeHydration<E extends HTMLInputElement | HTMLTextAreaElement>(forwarded: ForwardedRef<E>, value: unknown) {
  const own = useRef<E>(null);
  useImperativeHandle(forwarded, () => own.current as E);
  // Kept from the first render: a field taken over from prerendered markup renders first as the server did.
  const hydrated = useHydrated();
  const fromMarkup = useRef(!hydrated);
  const prerendered = useRef(value);
  useLayoutEffect(() => {
    const field = own.current;
    const initial = prerendered.current;
    // Uncontrolled fields keep what was typed by themselves.
    if (!fromMarkup.current || !field || (typeof initial !== 'string' && typeof initial !== 'number')) return;
    const typed = field.value;
    const held = String(initial);
    if (typed === held) return;
    // React's own setter records the form's value, so the input event below reads as the change it is.
    field.value = held;
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, typed);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }, []);
  return own;
}

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, ...props }, ref) {
  const own = useTypedBeforeHydration(ref, props.value);
  return <input ref={own} className={cn(fieldBase, 'h-11', className)} {...props} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea({ className, ...props }, ref) {
  const own = useTypedBeforeHydration(ref, props.value);
  return <textarea ref={own} className={cn(fieldBase, 'min-h-32 py-3 leading-relaxed', className)} {...props} />;
});

export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select({ className, ...props }, ref) {
  return <select ref={ref} className={cn(fieldBase, 'h-11 px-3', className)} {...props} />;
});

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn('text-sm font-medium text-foreground', className)} {...props} />;
}

/**
 * A labelled input with its error message under it, tied together for assistive technology: while there
 * is an error the input is marked invalid and described by it. `children` follow (a hint, say).
 */
export const TextField = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement> & { id: string; label: ReactNode; error?: string; errorId: string; children?: ReactNode }>(
  function TextField({ label, error, errorId, children, ...input }, ref) {
    return (
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={input.id}>{label}</Label>
        <Input ref={ref} {...input} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} />
        {error ? (
          <p id={errorId} className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
        {children}
      </div>
    );
  },
);
