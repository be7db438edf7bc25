import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { Spinner } from '../../../../components/ui/spinner';
import { onboardingQueries } from '../../../../lib/queries/organization-queries';
import { userQueries } from '../../../../lib/queries/user-queries';
import { onboardingTarget } from '../onboarding-target';
import { AttributesForm } from './attributes-form';

/** The centred card the onboarding page stands in, outside the shell, as sign-up's does. */
function OnboardingCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="brand brand-large" aria-hidden="true">
          <span className="brand-mark">N</span> Needl
        </div>
        <h1 className="auth-title">{title}</h1>
        {children}
      </div>
    </main>
  );
}

/**
 * /onboarding: while the server's flags ask for the attributes (a new user without an industry or
 * profession), the attributes form as a page; once onboarding is done, or when there is nothing
 * to ask, the page goes on to `?redirect=` or home. The profile fills in what it already knows.
 */
export function OnboardingPage() {
  const { search } = useLocation();
  const target = onboardingTarget(search);
  const status = useQuery({ ...userQueries.status(), meta: { toast: false } });
  const flags = useQuery({ ...onboardingQueries.flags(), meta: { toast: false } });
  // Only to fill in the form: without it the form starts empty.
  const profile = useQuery({ ...userQueries.profile(), meta: { toast: false } });

  if (status.isError || flags.isError) {
    return (
      <OnboardingCard title="Welcome to Needl">
        <div className="form-error" role="alert">
          <p>Your onboarding could not be loaded.</p>
          <button
            type="button"
            className="button"
            onClick={() => void Promise.all([status.isError && status.refetch(), flags.isError && flags.refetch()])}
          >
            Try again
          </button>
        </div>
        <p className="auth-switch">
          <Link to={target}>Continue to Needl</Link>
        </p>
      </OnboardingCard>
    );
  }
  if (status.isPending || flags.isPending || profile.isPending) {
    return (
      <main className="full-page-center">
        <Spinner label="Loading your onboarding" showLabel />
      </main>
    );
  }
  const done = status.data.user_status !== 'new' || !flags.data.show_attributes_form;
  if (done) return <Navigate to={target} replace />;

  return (
    <OnboardingCard title="Tell us about your work">
      <p className="muted">Two questions before you start. You can change the answers later in your settings.</p>
      <AttributesForm initial={{ industry: profile.data?.industry ?? '', profession: profile.data?.profession ?? '' }} />
      <p className="auth-switch">
        <Link to={target}>Skip for now</Link>
      </p>
    </OnboardingCard>
  );
}
