// The local model server's request reading and answer shapes, with no model: `node --test`.

import assert from "node:assert/strict";
import { test } from "node:test";

import { LIMITS, chunkEvent, completionBody, isLoopback, readChatRequest } from "./request.mjs";

/** What assistant/src/openai.rs sends for a report section. */
const needlRequest = {
  model: "gemma-3-270m",
  stream: true,
  temperature: 0.1,
  messages: [
    { role: "system", content: "You answer questions using only the numbered sources you are given." },
    { role: "user", content: "Sources:\n\n[1] Annual report 0 (page 1)\nRevenue grew.\n\nQuestion: Revenue?" },
  ],
};

test("the request Needl sends is read as it is", () => {
  const read = readChatRequest(needlRequest);
  assert.equal(read.ok, true);
  assert.deepEqual(read.request, {
    model: "gemma-3-270m",
    messages: needlRequest.messages,
    stream: true,
    temperature: 0.1,
    maxTokens: LIMITS.defaultMaxTokens,
  });
});

test("text parts are joined and a developer message is a system one", () => {
  const read = readChatRequest({
    model: "m",
    messages: [
      { role: "developer", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "Hello " }, { type: "text", text: "there" }] },
    ],
    max_tokens: 16,
  });
  assert.equal(read.ok, true);
  assert.deepEqual(read.request.messages, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "Hello there" },
  ]);
  assert.equal(read.request.maxTokens, 16);
  assert.equal(read.request.stream, false);
});

test("requests out of bounds are refused with a message saying why", () => {
  const refused = (body, why) => {
    const read = readChatRequest(body);
    assert.equal(read.ok, false, why);
    assert.equal(read.status, 400);
    assert.match(read.message, why);
  };
  const user = [{ role: "user", content: "hi" }];
  refused(null, /JSON object/);
  refused([], /JSON object/);
  refused({ messages: user }, /model/);
  refused({ model: "x".repeat(LIMITS.modelChars + 1), messages: user }, /model/);
  refused({ model: "m", messages: [] }, /messages/);
  refused({ model: "m", messages: Array(LIMITS.messages + 1).fill(user[0]) }, /messages/);
  refused({ model: "m", messages: [{ role: "tool", content: "x" }] }, /role/);
  refused({ model: "m", messages: [{ role: "user", content: 7 }] }, /content/);
  refused({ model: "m", messages: [{ role: "user", content: [{ type: "image_url" }] }] }, /text parts/);
  refused({ model: "m", messages: [{ role: "user", content: "x".repeat(LIMITS.contentChars + 1) }] }, /exceed/);
  refused({ model: "m", messages: [{ role: "assistant", content: "hi" }] }, /last message/);
  refused({ model: "m", messages: user, stream: "yes" }, /stream/);
  refused({ model: "m", messages: user, temperature: 3 }, /temperature/);
  refused({ model: "m", messages: user, max_tokens: LIMITS.maxTokens + 1 }, /max_tokens/);
  refused({ model: "m", messages: user, max_tokens: 1.5 }, /whole number/);
});

test("a streamed chunk and a whole completion have the chat-completions shape", () => {
  const meta = { id: "chatcmpl-1", created: 1, model: "m" };
  const event = chunkEvent(meta, { content: "Revenue grew [1]." });
  assert.ok(event.startsWith("data: ") && event.endsWith("\n\n"));
  const chunk = JSON.parse(event.slice("data: ".length));
  assert.equal(chunk.choices[0].delta.content, "Revenue grew [1].");
  assert.equal(chunk.choices[0].finish_reason, null);
  const body = completionBody(meta, "OK", "stop", { completion_tokens: 1 });
  assert.equal(body.choices[0].message.content, "OK");
  assert.equal(body.object, "chat.completion");
});

test("only loopback addresses are listened on", () => {
  for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1"]) assert.ok(isLoopback(host), host);
  for (const host of ["0.0.0.0", "::", "192.168.1.2", "10.0.0.1", "example.com"]) assert.ok(!isLoopback(host), host);
});
