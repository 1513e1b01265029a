/* The spectator TV: read-only, draws the public state; reconnects and resyncs by itself. */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc;
  var tv = document.getElementById('tv');
  var $ = function (id) { return document.getElementById(id); };
  var state = null, online = false;
  if (localStorage.getItem('fourColour') === '1' || /four=1/.test(location.search)) document.body.classList.add('four-colour');

  S.live('spectator', tv.dataset.lang, function (st) { state = st; render(); }, function (on) {
    online = on; conn();
  });

  function conn() {
    var c = $('tv-conn');
    c.className = 'conn' + (online ? '' : ' off');
    c.textContent = online ? '● ' + t('live.online') : '○ ' + t('live.offline');
  }

  /* seats spread round an oval, clockwise from the dealer's left (the dealer sits at the top) */
  function position(i, n) {
    var angle = -Math.PI / 2 + (2 * Math.PI * (i + 0.5)) / n;  /* from just right of the top, clockwise */
    return { left: 50 + 37 * Math.cos(angle), top: 50 + 37 * Math.sin(angle) };
  }

  function seatHTML(s, hand, i, n, winners) {
    var p = position(i, n), cls = 'tv-seat';
    if (hand && hand.to_act === s.seat && !hand.finished) cls += ' turn';
    if (s.folded) cls += ' folded';
    if (winners[s.seat]) cls += ' winner';
    var cards = s.cards ? s.cards.map(function (c) { return S.cardHTML(c); }).join('') : '';
    /* folded and all in are badges a player reads from across the room; a winner's share is text */
    var status = s.folded ? '<span class="badge fold" data-testid="seat-folded">' + esc(t('seat.folded')) + '</span>'
      : s.all_in ? '<span class="badge all-in" data-testid="seat-all-in">' + esc(t('seat.all_in')) + '</span>' : '';
    if (winners[s.seat]) status = esc('+' + winners[s.seat]);
    return '<div class="' + cls + '" data-seat="' + s.seat + '" style="left:' + p.left + '%;top:' + p.top + '%">' +
      '<div class="who"><span class="name">' + esc(s.name) + '</span>' +
      (state.table.dealer === s.seat ? '<span class="dealer-button" title="dealer">' + esc(t('seat.dealer')) + '</span>' : '') +
      '<span class="stack">' + s.stack + '</span></div>' +
      '<div class="cards">' + cards + '</div>' +
      '<div class="status">' + status + '</div>' +
      (s.bet ? '<div class="bet">' + s.bet + '</div>' : '') + '</div>';
  }

  function resultHTML(result) {
    var html = '<div class="tv-results" data-testid="tv-results">';
    result.pots.forEach(function (pot) {
      html += '<h2>' + esc(pot.title) + ' · ' + pot.amount + '</h2>';
      pot.shares.forEach(function (sh) {
        html += '<div class="push"><span>' + esc(sh.name) + (sh.half === 'low' ? ' · ' + esc(t('result.low')) : '') +
          '</span><span>' + esc(sh.hand || t('result.uncontested')) + '</span><span class="amount">' + sh.amount + '</span></div>';
      });
      if (pot.no_low) html += '<div class="why">' + esc(t('result.no_low')) + '</div>';
      pot.odd_chips.forEach(function (text) { html += '<div class="why">' + esc(text) + '</div>'; });
    });
    /* an uncalled bet goes back to its owner: shown, so that a winner's total adds up on screen */
    (result.returned || []).forEach(function (r) {
      html += '<div class="push returned" data-testid="tv-returned"><span>' + esc(t('result.returned', { name: r.name, amount: r.amount })) +
        '</span><span class="amount">' + r.amount + '</span></div>';
    });
    return html + '</div>';
  }

  /* the results go in the free band of felt between the seats above and below them, whatever
     the number of seats (three seats leave it low on the table, eight leave it in the middle) */
  function placeResults() {
    var panel = tv.querySelector('.tv-results');
    if (!panel) return;
    var table = $('tv-table').getBoundingClientRect(), p = panel.getBoundingClientRect();
    var middle = table.top + table.height / 2, top = table.top, bottom = table.bottom;
    tv.querySelectorAll('.tv-seat').forEach(function (seat) {
      var r = seat.getBoundingClientRect();
      if (r.right <= p.left || r.left >= p.right) return;
      if ((r.top + r.bottom) / 2 < middle) top = Math.max(top, r.bottom);
      else bottom = Math.min(bottom, r.top);
    });
    panel.style.top = ((top + bottom) / 2 - table.top) + 'px';
  }

  function render() {
    if (!state) return;
    var hand = state.hand, table = state.table, st = table.stakes;
    $('tv-game').textContent = table.game_name;
    $('tv-stakes').textContent = st.ante + ' / ' + st.bring_in + ' / ' + st.small_bet + '-' + st.big_bet;
    $('tv-street').textContent = hand ? t('dealer.hand', { number: hand.number }) +
      (hand.finished ? '' : ' · ' + hand.street_text) : '';
    var seats = hand ? hand.seats : table.seats, html = '', winners = {};
    if (hand && hand.finished && hand.result) {
      hand.result.payouts.forEach(function (p) { winners[p.seat] = p.amount; });
    }
    seats.forEach(function (s, i) { html += seatHTML(s, hand, i, seats.length, winners); });
    if (hand) {
      html += '<div class="tv-center"><div class="pot-label">' + esc(t('spectator.pot')) + '</div>' +
        '<div class="pot-total" data-testid="tv-pot">' + hand.total_pot + '</div>';
      if (hand.pots.length > 1) {
        html += '<div class="side-pots">' + hand.pots.map(function (p, i) {
          return esc(i === 0 ? t('spectator.main_pot') : t('spectator.side_pot', { n: i })) + ': ' + p.amount;
        }).join(' · ') + '</div>';
      }
      if (hand.community && hand.community.length) {
        html += '<div class="community cards">' + hand.community.map(function (c) { return S.cardHTML({ card: c }); }).join('') + '</div>';
      }
      html += '</div>';
      if (hand.finished && hand.result) html += resultHTML(hand.result);
    } else {
      html += '<div class="tv-waiting">' + esc(t('spectator.waiting')) + '</div>';
    }
    $('tv-table').innerHTML = html;
    $('tv-table').classList.toggle('has-results', !!(hand && hand.finished && hand.result));
    placeResults();
    var turn = '';
    if (hand && !hand.finished && hand.to_act) {
      hand.seats.forEach(function (s) { if (s.seat === hand.to_act) turn = t('spectator.turn') + ': ' + s.name; });
    } else if (hand && !hand.finished && hand.prompt.kind === 'show' && hand.prompt.seats.length) {
      hand.seats.forEach(function (s) {
        if (s.seat === hand.prompt.seats[0]) turn = t('spectator.ranking') + ': ' + t('spectator.shows', { name: s.name });
      });
    }
    $('tv-turn').textContent = turn;
    $('tv-last').textContent = hand && hand.last_action && !hand.finished ? hand.last_action.text : '';
  }
  window.addEventListener('resize', placeResults);
  conn();
})();
