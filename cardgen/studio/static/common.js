// cardgen studio: what every page's script shares. Every URL is relative: the page's
// address holds the studio's token, and so does everything fetched from it.

/** Call the studio's JSON API: GET without a body, POST with one. Resolves to the
 *  parsed JSON; rejects with an Error whose message is the server's one sentence. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let value = null;
  try {
    value = await response.json();
  } catch {
    throw new Error(`the studio answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    const error = new Error(value && value.error ? value.error : `error ${response.status}`);
    error.body = value;
    throw error;
  }
  return value;
}

/** Show `message` in the error banner `element` (hidden again for null). */
export function showError(element, message) {
  element.textContent = message || "";
  element.classList.toggle("hidden", !message);
}
