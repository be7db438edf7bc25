import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DOCKED_WIDTH_PROPERTY, OverlayPanel } from './overlay-panel';

const renderPanel = (props: Partial<Parameters<typeof OverlayPanel>[0]> = {}) => {
  const onWidthChange = vi.fn();
  const onClose = vi.fn();
  render(
    <OverlayPanel title="AskNeedl" size="variable" width={{ min: 35, max: 80, start: 35 }} onClose={onClose} onWidthChange={onWidthChange} {...props}>
      <p>body</p>
    </OverlayPanel>,
  );
  return { onWidthChange, onClose };
};

describe('overlay panel', () => {
  it('starts at its start width and expands to its maximum and back', async () => {
    const { onWidthChange } = renderPanel();
    const panel = screen.getByRole('complementary', { name: 'AskNeedl' });
    expect(panel).toHaveStyle({ width: '35vw' });
    await userEvent.click(screen.getByRole('button', { name: 'Expand' }));
    expect(panel).toHaveStyle({ width: '80vw' });
    await userEvent.click(screen.getByRole('button', { name: 'Collapse' }));
    expect(panel).toHaveStyle({ width: '35vw' });
    expect(onWidthChange.mock.calls).toEqual([[80], [35]]);
  });

  it('resizes with the arrow keys within its limits', () => {
    renderPanel({ width: { min: 50, max: 80 } });
    const handle = screen.getByRole('separator', { name: 'Resize overlay' });
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(handle).toHaveAttribute('aria-valuenow', '50');
    for (let i = 0; i < 10; i += 1) fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(handle).toHaveAttribute('aria-valuenow', '80');
  });

  it('offers no resizing when its width is fixed, and no close button when not closable', () => {
    renderPanel({ width: { min: 80, max: 80 }, closable: false });
    expect(screen.queryByRole('separator')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Expand' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close overlay' })).not.toBeInTheDocument();
  });

  it('caps a medium overlay at 864 px', () => {
    renderPanel({ size: 'medium', width: { min: 50, max: 80 } });
    expect(screen.getByRole('complementary')).toHaveStyle({ maxWidth: '864px' });
  });

  it('without a close button offers a collapse control that closes it', async () => {
    const { onClose } = renderPanel({ closable: false });
    await userEvent.click(screen.getByRole('button', { name: 'Hide AskNeedl' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape, from inside the panel or from the page', async () => {
    const { onClose } = renderPanel({ closable: false });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    screen.getByRole('button', { name: 'Hide AskNeedl' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('leaves Escape to a field of the page, to whatever took the key, and to an open dialog', () => {
    const { onClose } = renderPanel({ closable: false });
    const field = document.body.appendChild(document.createElement('input'));
    fireEvent.keyDown(field, { key: 'Escape' });
    const taken = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    taken.preventDefault();
    document.body.dispatchEvent(taken);
    const dialog = document.body.appendChild(document.createElement('div'));
    dialog.setAttribute('aria-modal', 'true');
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    field.remove();
    dialog.remove();
  });

  it('when docked, tells what holds it its width, so the page makes room, and forgets it when closed', async () => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const { unmount } = render(
      <OverlayPanel title="AskNeedl" size="variable" width={{ min: 35, max: 80, start: 35 }} docked closable={false} onClose={() => {}}>
        <p>body</p>
      </OverlayPanel>,
      { container: host },
    );
    expect(host.style.getPropertyValue(DOCKED_WIDTH_PROPERTY)).toBe('35vw');
    await userEvent.click(screen.getByRole('button', { name: 'Expand' }));
    expect(host.style.getPropertyValue(DOCKED_WIDTH_PROPERTY)).toBe('80vw');
    unmount();
    expect(host.style.getPropertyValue(DOCKED_WIDTH_PROPERTY)).toBe('');
    host.remove();
  });
});
