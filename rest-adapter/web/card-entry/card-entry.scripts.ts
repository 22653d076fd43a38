/**
 * The two browser scripts of the card pages (docs/web-pages.md), strings so that the build, which
 * compiles TypeScript only, ships them. The pages' CSP allows no inline script, so each reads its
 * settings from `data-*` attributes of the element it works on. ES2017, no modules.
 */

/**
 * `card-form.js`: mounts Stripe's Payment Element in `[data-stripe-card]` and, when its form is
 * submitted (any button but one marked `data-skip-card`, such as "Apply" a discount code), validates
 * the element, mints a confirmation token, puts its id in the form's `confirmation_token_id` and posts
 * the form: the server confirms with it exactly as it does for the API's clients.
 */
export const CARD_FORM_SCRIPT = `'use strict';
(function () {
  var box = document.querySelector('[data-stripe-card]');
  if (!box) return;
  var form = box.closest('form');
  var card = box.closest('.card') || form;
  var data = box.dataset;
  function showError(message) {
    var error = card.querySelector('.error[role="alert"]');
    if (!error) {
      error = document.createElement('div');
      error.className = 'error';
      error.setAttribute('role', 'alert');
      card.insertBefore(error, card.firstChild);
    }
    error.textContent = message;
  }
  if (typeof window.Stripe !== 'function') {
    showError(data.unavailable);
    return;
  }
  var stripe = window.Stripe(data.publishableKey);
  var options = { mode: data.mode, currency: data.currency, paymentMethodCreation: 'manual' };
  if (data.mode !== 'setup') options.amount = Number(data.amount);
  if (data.setupFutureUsage) options.setupFutureUsage = data.setupFutureUsage;
  var elements = stripe.elements(options);
  elements.create('payment').mount(box.querySelector('[data-payment-element]'));
  var busy = false;
  function setBusy(value) {
    busy = value;
    Array.prototype.forEach.call(form.querySelectorAll('button'), function (b) { b.disabled = value; });
  }
  form.addEventListener('submit', function (event) {
    var submitter = event.submitter;
    if (submitter && submitter.hasAttribute('data-skip-card')) return;
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    elements.submit()
      .then(function (result) {
        if (result.error) throw result.error;
        return stripe.createConfirmationToken({ elements: elements });
      })
      .then(function (result) {
        if (result.error) throw result.error;
        form.querySelector('input[name="confirmation_token_id"]').value = result.confirmationToken.id;
        if (submitter && submitter.name) {
          var pressed = document.createElement('input');
          pressed.type = 'hidden';
          pressed.name = submitter.name;
          pressed.value = submitter.value;
          form.appendChild(pressed);
        }
        form.submit();
      })
      .catch(function (error) {
        setBusy(false);
        // The Payment Element shows its own field errors beside the fields (as Polar's checkout does).
        if (error && error.type === 'validation_error') return;
        showError((error && error.message) || data.failed);
      });
  });
})();
`;

/**
 * `next-action.js`: completes what the bank asks for (3-D Secure) with Stripe.js `handleNextAction`,
 * then goes to `data-return-url` (which shows the outcome the server knows), or to `data-failure-url`
 * when Stripe.js says the action failed.
 */
export const NEXT_ACTION_SCRIPT = `'use strict';
(function () {
  var box = document.querySelector('[data-next-action]');
  if (!box) return;
  var data = box.dataset;
  function fail(message) {
    var error = box.querySelector('.error');
    error.textContent = message;
    error.hidden = false;
    box.querySelector('[data-continue]').hidden = false;
  }
  if (typeof window.Stripe !== 'function') return fail(data.unavailable);
  var stripe = window.Stripe(data.publishableKey);
  stripe.handleNextAction({ clientSecret: data.clientSecret })
    .then(function (result) {
      window.location.replace(result.error ? data.failureUrl : data.returnUrl);
    })
    .catch(function (error) {
      fail((error && error.message) || data.unavailable);
    });
})();
`;
