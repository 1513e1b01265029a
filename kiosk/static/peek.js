/* The dealer screen's hold to see: hole cards entered with their values are drawn as backs with a
   mark (house option); a finger held on a seat's cards shows them until it lifts, and a hold is
   not a tap on the seat. */
(function () {
  'use strict';
  var peek = { seat: null, timer: null, shown: false };
  window.StudPeek = peek;  /* the seat held, for the dealer screen's redraw (dealer.js) */
  document.addEventListener('pointerdown', function (ev) {
    var cards = ev.target.closest('.cards');
    if (!cards || !cards.querySelector('.down-known') || !document.body.classList.contains('hide-down')) return;
    var seat = cards.closest('[data-seat]');
    peek.seat = seat ? seat.dataset.seat : null;
    peek.shown = false;
    peek.timer = setTimeout(function () { cards.classList.add('peek'); peek.shown = true; }, 180);
  });
  function endPeek() {
    clearTimeout(peek.timer);
    peek.seat = null;
    document.querySelectorAll('.cards.peek').forEach(function (c) { c.classList.remove('peek'); });
  }
  ['pointerup', 'pointercancel'].forEach(function (name) { document.addEventListener(name, endPeek); });
  /* the click that ends a hold is swallowed before it reaches a seat */
  document.addEventListener('click', function (ev) {
    if (peek.shown && ev.target.closest('.cards')) { ev.stopPropagation(); ev.preventDefault(); }
    peek.shown = false;
  }, true);
})();
