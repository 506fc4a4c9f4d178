import { VIEWER_TAB_LABELS, type ViewSection } from '@lv/contracts';

export { formatDate, formatDateTime } from '../../lib/dates.js';
export const sectionNames = (sections: readonly ViewSection[]) => sections.map((s) => VIEWER_TAB_LABELS[s]).join(', ');
