import { actorName, aggregateNoun, exportFileName, fieldsOf, readableAggregateType, readableEventType, shortHash, subjectLabel } from './audit-format';

describe('audit wording', () => {
  it('writes event and aggregate types as words', () => {
    expect(readableEventType('TagCreated')).toBe('Tag created');
    expect(readableEventType('DocumentMarkedUnread')).toBe('Document marked unread');
    expect(readableEventType('RSSFeedAdded')).toBe('RSS feed added');
    expect(readableEventType('report.progress')).toBe('Report progress');
    expect(readableAggregateType('notebook_shelf')).toBe('Notebook shelf');
    expect(aggregateNoun('channel_document')).toBe('channel document');
  });

  it('reads an event’s fields inside the variant cqrs-es wraps them in', () => {
    expect(fieldsOf({ NotebookCreated: { name: 'Trips' } })).toEqual({ name: 'Trips' });
    expect(fieldsOf({ name: 'Flat' , other: 1 })).toEqual({ name: 'Flat', other: 1 });
    expect(fieldsOf('nope')).toEqual({});
  });

  it('labels what an event is about with a name from its payload, never a secret', () => {
    expect(subjectLabel({ payload: { NotebookRenamed: { from: 'Old', name: 'New' } } })).toBe('New');
    expect(subjectLabel({ payload: { UserSignedUp: { username: '[redacted]', email: 'a@b.c' } } })).toBe('a@b.c');
    expect(subjectLabel({ payload: { TagDeleted: { tag_id: 't1' } } })).toBeNull();
    expect(subjectLabel({ payload: { X: { title: 'x'.repeat(80) } } })).toHaveLength(60);
  });

  it('says who acted: the user’s name, System, or an unknown user', () => {
    expect(actorName({ metadata: { user_id: 'u1' }, actor_name: 'Ada' })).toBe('Ada');
    expect(actorName({ metadata: { user_id: 'system' }, actor_name: null })).toBe('System');
    expect(actorName({ metadata: {}, actor_name: null })).toBe('System');
    expect(actorName({ metadata: { user_id: 'u9' }, actor_name: null })).toBe('Unknown user');
  });

  it('shortens hashes and names exports by the time they were made', () => {
    expect(shortHash('abcdef0123456789abcdef')).toBe('abcdef012345…');
    expect(shortHash('abc')).toBe('abc');
    expect(exportFileName(new Date('2025-05-06T07:08:09Z'))).toBe('needl-audit-2025-05-06T07-08-09.ndjson');
  });
});
