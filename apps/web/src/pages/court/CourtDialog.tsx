import type { ReactNode } from 'react';
import { ModalFrame } from '../../components/ui/modal.js';

/** A modal of the court screens: a title (the dialog's name), a line saying what it is, a close button, a scrolling body. */
export function CourtDialog({ open, onOpenChange, title, description, wide, children }: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <ModalFrame open={open} onOpenChange={onOpenChange} title={title} description={description} widthClass={wide ? 'max-w-4xl' : 'max-w-xl'}>
      {children}
    </ModalFrame>
  );
}
