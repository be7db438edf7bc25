// The test provider's state (sessions, interactions, grants, codes, tokens) in one Map that
// outlives each oidc-provider instance, so a key rotation that rebuilds the instance keeps it, and
// the harness can look records up by account, which oidc-provider's own memory adapter cannot.

export class MemoryStore {
  /** `Model:id` → { payload, expiresAt } */
  #records = new Map();

  /** Returns an oidc-provider adapter class whose instances all read and write this store. */
  adapter() {
    const records = this.#records;
    const live = (key) => {
      const record = records.get(key);
      if (record && record.expiresAt <= Date.now()) records.delete(key);
      return records.get(key)?.payload;
    };
    return class Adapter {
      constructor(model) {
        this.model = model;
      }

      async upsert(id, payload, expiresIn) {
        records.set(`${this.model}:${id}`, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
      }

      async find(id) {
        return live(`${this.model}:${id}`);
      }

      async findByUid(uid) {
        for (const [key, { payload }] of records) {
          if (key.startsWith(`${this.model}:`) && payload.uid === uid) return live(key);
        }
        return undefined;
      }

      async findByUserCode(userCode) {
        for (const [key, { payload }] of records) {
          if (key.startsWith(`${this.model}:`) && payload.userCode === userCode) return live(key);
        }
        return undefined;
      }

      async consume(id) {
        const payload = live(`${this.model}:${id}`);
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      }

      async destroy(id) {
        records.delete(`${this.model}:${id}`);
      }

      async revokeByGrantId(grantId) {
        for (const [key, { payload }] of records) {
          if (payload.grantId === grantId) records.delete(key);
        }
      }
    };
  }

  /**
   * Deletes every session, grant, code and token of the account. Returns how many sessions and
   * grants went, so a test can see that it revoked something.
   */
  removeAccount(sub) {
    const removed = { sessions: 0, grants: 0 };
    for (const [key, { payload }] of this.#records) {
      if (payload.accountId !== sub) continue;
      if (key.startsWith('Session:')) removed.sessions += 1;
      if (key.startsWith('Grant:')) removed.grants += 1;
      this.#records.delete(key);
    }
    return removed;
  }
}
