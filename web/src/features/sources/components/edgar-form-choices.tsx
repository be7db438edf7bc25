import { FORM_HINTS } from '../edgar-display';

/**
 * The form types a follow may be narrowed to, as checkboxes named `forms`; none ticked brings in
 * every form. The common ones (those with a hint) show first and say what they are; the rest
 * wait under "More forms", so the list stays short on a phone. A closed disclosure still submits
 * what is ticked inside it.
 */
export function EdgarFormChoices({ forms }: { forms: readonly string[] }) {
  if (forms.length === 0) return null;
  const common = forms.filter((form) => FORM_HINTS[form]);
  const more = forms.filter((form) => !FORM_HINTS[form]);
  return (
    <fieldset className="edgar-forms">
      <legend>Forms (optional)</legend>
      <p className="field-hint">Tick the forms to bring in. With none ticked, every form the company files comes in.</p>
      <FormList forms={common} />
      {more.length > 0 && (
        <details className="edgar-forms-more">
          <summary>More forms ({more.length})</summary>
          <FormList forms={more} />
        </details>
      )}
    </fieldset>
  );
}

function FormList({ forms }: { forms: readonly string[] }) {
  return (
    <ul className="edgar-forms-grid">
      {forms.map((form) => (
        <li key={form}>
          <label className="checkbox-label">
            <input type="checkbox" className="checkbox" name="forms" value={form} />
            <span className="edgar-form-code">{form}</span>
            {FORM_HINTS[form] && (
              <>
                {' '}
                <span className="edgar-form-hint">{FORM_HINTS[form]}</span>
              </>
            )}
          </label>
        </li>
      ))}
    </ul>
  );
}
