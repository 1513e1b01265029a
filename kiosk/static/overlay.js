/* The stream overlay: the table as it was the house's delay ago (every frame comes from the
   kiosk only once its time has passed), every hole card entered, the odds computed with them, the
   pot and the action. It reconnects by itself; a link that is no longer valid says so. */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc;
  var root = document.getElementById('overlay');
  var $ = function (id) { return document.getElementById(id); };
  var frame = null, refused = '';
  var socket = io('/overlay', { auth: { token: root.dataset.token, lang: root.dataset.lang },
    transports: ['websocket', 'polling'], reconnectionDelay: 500, reconnectionDelayMax: 3000 });
  socket.on('frame', function (f) { frame = f; refused = ''; render(); });
  socket.on('connect_error', function (err) { refused = err && err.message || ''; render(); });

  function seatHTML(s, hand, odds, winners, names) {
    var cls = 'ov-seat';
    if (!hand.finished && hand.to_act === s.seat) cls += ' turn';
    if (s.folded) cls += ' folded';
    if (winners[s.seat]) cls += ' winner';
    var figures = odds && !s.folded ? odds.seats[s.seat] : null;
    var line = winners[s.seat] ? '<span class="won">+' + winners[s.seat] + '</span>' : '';
    if (names[s.seat]) line = '<span class="hand-name">' + esc(names[s.seat]) + '</span>' + line;
    else if (figures) line = S.oddsHTML(figures);
    else if (s.folded) line = '<span class="badge fold">' + esc(t('seat.folded')) + '</span>';
    else if (s.all_in) line = '<span class="badge all-in">' + esc(t('seat.all_in')) + '</span>';
    return '<div class="' + cls + '" data-seat="' + s.seat + '" data-testid="ov-seat">' +
      '<div class="who"><span class="name">' + esc(s.name) + '</span><span><span class="stack">' + s.stack + '</span>' +
      (s.bet ? '<span class="bet">' + s.bet + '</span>' : '') + '</span></div>' +
      '<div class="cards">' + s.cards.map(function (c) { return S.cardHTML(c); }).join('') + '</div>' +
      '<div class="line">' + line + '</div>' +
      (figures ? '<div class="ov-bar"><span style="width:' + Math.round(figures.equity * 100) + '%"></span></div>' : '') +
      '</div>';
  }

  /* the chips in the middle; once pushed, the pots that were */
  function pot(hand) {
    if (!hand.finished || !hand.result) return hand.total_pot;
    return hand.result.pots.reduce(function (sum, p) { return sum + p.amount; }, 0);
  }

  function render() {
    var state = frame && frame.state, hand = state && state.hand, delay = frame ? frame.delay : root.dataset.delay;
    if (!hand) {
      $('ov-left').innerHTML = $('ov-right').innerHTML = '';
      $('ov-info').innerHTML = '<span class="small">' + esc(refused || t('overlay.waiting', { delay: delay })) + '</span>';
      return;
    }
    root.dataset.hand = hand.number;  /* which hand the overlay shows (for a browser's tests) */
    var odds = frame.odds && !hand.finished ? frame.odds : null, winners = {}, names = {};
    if (hand.finished && hand.result && !hand.result.misdeal) {
      hand.result.payouts.forEach(function (p) { winners[p.seat] = p.amount; });
      hand.result.pots.forEach(function (pot) {
        pot.shares.forEach(function (sh) { if (sh.hand && !names[sh.seat]) names[sh.seat] = sh.hand; });
        (pot.beaten || []).forEach(function (b) { if (!names[b.seat]) names[b.seat] = b.hand; });
      });
    }
    var html = hand.seats.map(function (s) { return seatHTML(s, hand, odds, winners, names); });
    var half = Math.ceil(html.length / 2);
    $('ov-left').innerHTML = html.slice(0, half).join('');
    $('ov-right').innerHTML = html.slice(half).join('');
    var info = '<div><span class="game">' + esc(state.table.game_name) + '</span> · ' +
      esc(t('dealer.hand', { number: hand.number })) + (hand.finished ? '' : ' · ' + esc(hand.street_text)) + '</div>' +
      '<div class="pot" data-testid="ov-pot">' + esc(t('spectator.pot')) + ' ' + pot(hand) + '</div>';
    if (hand.community && hand.community.length) {
      info += '<div class="community cards">' + hand.community.map(function (c) { return S.cardHTML({ card: c }); }).join('') + '</div>';
    }
    if (hand.last_action && !hand.finished) info += '<div data-testid="ov-last">' + esc(hand.last_action.text) + '</div>';
    info += '<div class="small">' + esc(S.oddsHow(odds)) + (odds ? ' · ' : '') + esc(t('overlay.delay', { delay: delay })) + '</div>';
    $('ov-info').innerHTML = info;
  }
  render();
})();
