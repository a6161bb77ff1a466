/*
 * The OAuth pages' script (static, allowed by the pages' CSP as 'self'):
 * - sign-in: signs in through the JSON API (cookie-authenticated writes are JSON), then shows the
 *   page again, now with the consent;
 * - consent: "Not you? Sign out" ends the session through the API and shows the sign-in again.
 */
(() => {
  const form = document.getElementById('signin');
  const error = document.getElementById('error');
  if (form) {
    form.hidden = false;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const response = await fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: form.email.value, password: form.password.value }),
      });
      if (response.ok) location.reload();
      else if (error) error.textContent = form.getAttribute('data-failed');
    });
  }
  const notYou = document.getElementById('not-you');
  const signOut = document.getElementById('sign-out');
  if (notYou && signOut) {
    notYou.hidden = false;
    signOut.addEventListener('click', async () => {
      await fetch('/api/auth/logout', { method: 'POST' });
      location.reload();
    });
  }
})();
