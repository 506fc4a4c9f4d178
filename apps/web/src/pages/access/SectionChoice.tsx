import { VIEW_SECTIONS, VIEWER_TAB_LABELS, type ViewSection } from '@lv/contracts';

/** Which parts of the vault a key opens (beyond the spec: one child the letters, another the court journal). */
export function SectionChoice({ value, onChange, legend = 'Sections this key opens' }: { value: ViewSection[]; onChange: (next: ViewSection[]) => void; legend?: string }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {VIEW_SECTIONS.map((section) => (
          <label key={section} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="h-4 w-4"
              checked={value.includes(section)}
              onChange={(e) => onChange(e.target.checked ? VIEW_SECTIONS.filter((s) => s === section || value.includes(s)) : value.filter((s) => s !== section))}
            />
            {VIEWER_TAB_LABELS[section]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Whether the key's viewers may download originals (default off: they can view, not keep copies). */
export function AllowDownloadChoice({ value, onChange }: { value: boolean; onChange: (next: boolean) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" className="h-4 w-4" checked={value} onChange={(e) => onChange(e.target.checked)} />
      Allow downloads of originals
    </label>
  );
}
