/**
 * What the publish option is called (the spec): ALL for organisation 2, otherwise the
 * organisation's domain, or its name, or "your".
 */
export function publishTitle(organization: { id: string | number; domain?: string | null; name?: string | null }): string {
  if (String(organization.id) === '2') return 'ALL';
  return organization.domain?.trim() || organization.name?.trim() || 'your';
}

/** The publish option's words: "your organization" when the title is "your". */
export function publishLabel(organization: { id: string | number; domain?: string | null; name?: string | null }): string {
  const title = publishTitle(organization);
  return title === 'your' ? 'your organization' : title;
}
