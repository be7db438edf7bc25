import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { FeedbackForm } from './feedback-form';

const saved = { id: 'r1', title: 'T', name: 'T', status: 'COMPLETED', report_type: 'drhp_report', created_at: 'x', updated_at: 'x' };

describe('the feedback form', () => {
  it('keeps Submit disabled until the rating or the comments differ from the saved ones', async () => {
    stubApi({});
    renderWithProviders(<FeedbackForm reportId="r1" savedRating={3} savedComments="fine" />, { route: "/report/r1" });
    const submit = screen.getByRole('button', { name: 'Submit' });
    expect(submit).toBeDisabled();

    await userEvent.click(screen.getByRole('radio', { name: '4 stars' }));
    expect(submit).toBeEnabled();
    await userEvent.click(screen.getByRole('radio', { name: '3 stars' }));
    expect(submit).toBeDisabled();

    const comments = screen.getByRole('textbox', { name: 'Comments' });
    await userEvent.type(comments, '!');
    expect(submit).toBeEnabled();
    await userEvent.type(comments, '{backspace}');
    expect(submit).toBeDisabled();
  });

  it('moves the rating with the arrow keys, focus following the checked star', async () => {
    stubApi({});
    renderWithProviders(<FeedbackForm reportId="r1" savedRating={null} savedComments={null} />, { route: '/report/r1' });
    const first = screen.getByRole('radio', { name: '1 star' });
    first.focus();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('radio', { name: '2 stars' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('radio', { name: '2 stars' })).toHaveFocus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.getByRole('radio', { name: '1 star' })).toHaveAttribute('aria-checked', 'true');
  });

  it('sends the rating and comments and says so; a failure says it failed', async () => {
    let fail = false;
    const calls = stubApi({
      'PUT /api/ml/report/r1': () => (fail ? json(500, { code: 'internal', message: 'x' }) : json(200, { results: { ...saved, rating: 5 } })),
    });
    renderWithProviders(<FeedbackForm reportId="r1" savedRating={null} savedComments={null} />, { route: "/report/r1" });
    await userEvent.click(screen.getByRole('radio', { name: '5 stars' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Comments' }), 'Useful');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Feedback submitted successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'PUT /api/ml/report/r1')?.body).toEqual({ rating: 5, comments: 'Useful' });

    fail = true;
    await userEvent.type(screen.getByRole('textbox', { name: 'Comments' }), '!');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getByText('Failed to submit feedback')).toBeInTheDocument());
  });
});
