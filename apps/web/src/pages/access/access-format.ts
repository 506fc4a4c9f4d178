import { VIEWER_TAB_LABELS, type ViewSection } from '@lv/contracts';

export const formatDateTime = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
export const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
export const sectionNames = (sections: readonly ViewSection[]) => sections.map((s) => VIEWER_TAB_LABELS[s]).join(', ');
