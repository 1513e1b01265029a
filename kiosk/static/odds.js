/* Odds on the screens (the TV and the stream overlay): a seat's figures and how they were found.
   figures: {win, equity, high?, low?, scoop?}, each a fraction of 1 (docs/api.md, "odds"). */
(function (S) {
  'use strict';
  var t = S.t, esc = S.esc;
  /* a percentage a viewer reads at a glance: whole points, never 0 % or 100 % for what may still
     happen */
  function pct(x) {
    if (x > 0 && x < 0.005) return '<1%';
    if (x < 1 && x >= 0.995) return '>99%';
    return Math.round(x * 100) + '%';
  }
  S.pct = pct;
  /* the seat's chance to win (its expected share of the pot), and in hi/lo each half and the scoop */
  S.oddsHTML = function (f) {
    if (!f) return '';
    var html = '<span class="odds" data-testid="seat-odds"><span class="equity">' + pct(f.equity) + '</span>';
    if (f.high !== undefined) {
      html += '<span class="halves">' + esc(t('odds.high')) + ' ' + pct(f.high) + ' · ' + esc(t('odds.low')) + ' ' +
        pct(f.low) + ' · ' + esc(t('odds.scoop')) + ' ' + pct(f.scoop) + '</span>';
    }
    return html + '</span>';
  };
  /* "esatto" / "stima" */
  S.oddsHow = function (odds) {
    return odds ? t('odds.title') + ': ' + t(odds.exact ? 'odds.exact' : 'odds.estimate') : '';
  };
})(window.Stud);
