import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { COMMENT_EMPTY } from '../messages';
import { CommentEditor } from './comment-editor';

const members = [
  { user_id: 'u1', username: 'ada' },
  { user_id: 'u2', username: 'bob' },
];

describe('the comment editor', () => {
  it('saves on Enter, adds a line on Shift+Enter, and clears after a save', async () => {
    const onSave = vi.fn(async () => true);
    render(<CommentEditor label="Comment" members={null} onSave={onSave} />);
    const box = screen.getByRole('textbox', { name: 'Comment' });
    expect(box).toHaveAttribute('placeholder', 'Add your comment');
    await userEvent.type(box, 'first line{Shift>}{Enter}{/Shift}second');
    expect(onSave).not.toHaveBeenCalled();
    await userEvent.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith('first line\nsecond', []);
    expect(box).toHaveValue('');
  });

  it('refuses an empty comment without asking the server', async () => {
    const onSave = vi.fn(async () => true);
    render(<CommentEditor label="Comment" members={null} onSave={onSave} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), '   {Enter}');
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent(COMMENT_EMPTY);
  });

  it('discards an edit on Escape', async () => {
    const onSave = vi.fn(async () => true);
    const onCancel = vi.fn();
    render(<CommentEditor label="Edit" initialText="old" members={null} onSave={onSave} onCancel={onCancel} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Edit' }), ' changed{Escape}');
    expect(onCancel).toHaveBeenCalled();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('offers members after @ and sends the ids of those still mentioned', async () => {
    const onSave = vi.fn(async () => true);
    render(<CommentEditor label="Comment" members={members} selfId="u2" onSave={onSave} />);
    const box = screen.getByRole('textbox', { name: 'Comment' });
    await userEvent.type(box, 'hi @a');
    const list = screen.getByRole('listbox', { name: 'Mention a member' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['@ada']);
    expect(list).toBeInTheDocument();
    await userEvent.keyboard('{Enter}');
    expect(box).toHaveValue('hi @ada ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await userEvent.type(box, 'look{Enter}');
    expect(onSave).toHaveBeenCalledWith('hi @ada look', ['u1']);
  });

  it('offers no mentions when they are off (a published group)', async () => {
    render(<CommentEditor label="Comment" members={null} onSave={async () => true} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), '@a');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('keeps the draft and shows the server’s words when a save is refused', () => {
    render(<CommentEditor label="Comment" members={null} onSave={async () => false} error="Cards originating from chats cannot be commented upon" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Cards originating from chats cannot be commented upon');
  });
});
