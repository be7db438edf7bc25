// What the local model server accepts and how it answers, with no model in sight: reading a
// chat-completions request within bounds, and the shapes of its answers (one JSON completion,
// or server-sent chunks ending in `data: [DONE]`) as `assistant/src/openai.rs` reads them.

/** The bounds a request is held to. */
export const LIMITS = Object.freeze({
  /** Largest request body: a report section's prompt (10 passages of 1,500 characters) is ~20 KB. */
  bodyBytes: 512 * 1024,
  messages: 32,
  /** Characters of all messages together. */
  contentChars: 200_000,
  modelChars: 200,
  /** Most tokens one answer may have, and how many when the request names none. */
  maxTokens: 2048,
  defaultMaxTokens: 512,
});

const ROLES = new Set(["system", "developer", "user", "assistant"]);

class Invalid extends Error {}

/** A message's text: a string, or OpenAI's array of parts of which only text parts are read. */
function text(content, i) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        if (part && part.type === "text" && typeof part.text === "string") return part.text;
        throw new Invalid(`messages[${i}].content: only text parts are read`);
      })
      .join("");
  }
  throw new Invalid(`messages[${i}].content must be a string`);
}

function number(value, name, min, max) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    throw new Invalid(`${name} must be a number from ${min} to ${max}`);
  }
  return value;
}

/**
 * Reads a parsed request body. Returns `{ok: true, request}` with `{model, messages: [{role,
 * content}], stream, temperature, maxTokens}` (roles `system`, `user`, `assistant`; the last
 * message the user's), or `{ok: false, status: 400, message}`.
 */
export function readChatRequest(body) {
  try {
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new Invalid("the body must be a JSON object");
    const { model, messages, stream = false } = body;
    if (typeof model !== "string" || model.length === 0 || model.length > LIMITS.modelChars) {
      throw new Invalid(`model must be a name of 1 to ${LIMITS.modelChars} characters`);
    }
    if (!Array.isArray(messages) || messages.length === 0 || messages.length > LIMITS.messages) {
      throw new Invalid(`messages must be a list of 1 to ${LIMITS.messages} messages`);
    }
    let chars = 0;
    const read = messages.map((m, i) => {
      if (!m || typeof m !== "object" || !ROLES.has(m.role)) {
        throw new Invalid(`messages[${i}].role must be system, user or assistant`);
      }
      const content = text(m.content, i);
      chars += content.length;
      return { role: m.role === "developer" ? "system" : m.role, content };
    });
    if (chars > LIMITS.contentChars) throw new Invalid(`the messages exceed ${LIMITS.contentChars} characters`);
    if (read[read.length - 1].role !== "user") throw new Invalid("the last message must be the user's");
    if (typeof stream !== "boolean") throw new Invalid("stream must be true or false");
    const temperature = number(body.temperature, "temperature", 0, 2) ?? 0;
    const maxTokens = number(body.max_completion_tokens ?? body.max_tokens, "max_tokens", 1, LIMITS.maxTokens);
    if (maxTokens !== undefined && !Number.isInteger(maxTokens)) throw new Invalid("max_tokens must be a whole number");
    return {
      ok: true,
      request: { model, messages: read, stream, temperature, maxTokens: maxTokens ?? LIMITS.defaultMaxTokens },
    };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, status: 400, message: error.message };
    throw error;
  }
}

/** An error body as chat-completions servers give one. */
export function errorBody(message, type = "invalid_request_error") {
  return { error: { message, type } };
}

/** One server-sent chunk of a streamed completion. */
export function chunkEvent({ id, created, model }, delta, finishReason = null) {
  const chunk = {
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** The whole completion, for a request that did not ask to stream. */
export function completionBody({ id, created, model }, content, finishReason, usage) {
  return {
    id,
    object: "chat.completion",
    created,
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finishReason }],
    usage,
  };
}

/** Whether `host` is a loopback address (the only kind this server listens on). */
export function isLoopback(host) {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}
