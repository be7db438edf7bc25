import { FORM_HINTS } from '../edgar-display';

/**
 * The form types a follow may be narrowed to, as checkboxes named `forms`; none ticked brings in
 * every form. The common ones say what they are.
 */
export function EdgarFormChoices({ forms }: { forms: readonly string[] }) {
  if (forms.length === 0) return null;
  return (
    <fieldset className="edgar-forms">
      <legend>Forms (optional)</legend>
      <p className="field-hint">Tick the forms to bring in. With none ticked, every form the company files comes in.</p>
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
    </fieldset>
  );
}
