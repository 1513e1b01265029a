/* Learning the deck on the table (kiosk/camera/learning.py): on /camera/deck the corners the
   camera sees are outlined on its picture and named with one tap (a card read: confirmed, or
   corrected with the picker; a card not read: named with the picker); /camera/decks lists the
   learned decks (the table's, a new one, deleting); /camera/decks/<key> shows a deck's examples
   by card, each removable. */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc;
  var $ = function (id) { return document.getElementById(id); };
  var token = (document.querySelector('meta[name="csrf-token"]') || {}).content || '';

  function note(message) {
    var box = $('camera-hint');
    if (!box) return;
    box.textContent = message;
    clearTimeout(note.timer);
    note.timer = setTimeout(function () { box.textContent = ''; }, 6000);
  }
  /* a JSON request of the dealer's; done(body) when it went through, else its refusal shown */
  function call(method, url, body, done) {
    fetch(url, {
      method: method, credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRFToken': token },
      body: body === null ? undefined : JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return { ok: false, error: '?' }; });
    }).then(function (answer) {
      if (answer && answer.ok !== false) { if (done) done(answer); }
      else note((answer && answer.error) || '?');
    }).catch(function () { note(t('live.offline')); });
  }
  /* where an example came from: the camera page, or a hand's entry */
  function source(text) {
    if (text === 'registration') return t('camera.source.registration');
    var hand = /^hand (\d+)$/.exec(text);
    return hand ? t('camera.source.hand', { number: hand[1] }) : text;
  }
  function counts(d) {
    return t('camera.deck.counts', { examples: d.examples, ranks: d.ranks, ranks_all: d.ranks_all,
      suits: d.suits, suits_all: d.suits_all });
  }

  /* ---- /camera/deck: naming the cards the camera sees ---- */
  var learn = $('learn-app');
  if (learn) {
    var lang = learn.dataset.lang, state = null, img = $('camera-img'), canvas = $('learn-canvas');
    var asking = null;  /* the corner the picker is open for */
    var picker = $('learn-cards');
    S.SUITS.forEach(function (suit) {
      S.RANKS.forEach(function (rank) {
        var b = document.createElement('button');
        b.type = 'button'; b.className = 's-' + suit; b.dataset.card = rank + suit;
        b.setAttribute('aria-label', rank + suit);
        b.textContent = S.cardLabel(rank + suit);
        picker.appendChild(b);
      });
    });
    var name = function (corner, card) {
      call('POST', '/api/camera/corners', { corner: corner.id, card: card }, function () {
        note(t('camera.learn.named', { card: S.cardLabel(card) }));
      });
    };
    var ask = function (corner) {
      asking = corner;
      var yes = $('learn-yes');
      if (corner.card) {
        $('learn-question').textContent = t('camera.learn.is_it', { card: S.cardLabel(corner.card) });
        yes.textContent = t('camera.learn.yes', { card: S.cardLabel(corner.card) });
        yes.hidden = false;
      } else {
        $('learn-question').textContent = t('camera.learn.which');
        yes.hidden = true;
      }
      $('learn-sheet').hidden = false;
      draw();
    };
    var close = function () { asking = null; $('learn-sheet').hidden = true; draw(); };
    $('learn-cancel').addEventListener('click', close);
    $('learn-yes').addEventListener('click', function () {
      if (asking && asking.card) name(asking, asking.card);
      close();
    });
    picker.addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-card]');
      if (!b || !asking) return;
      name(asking, b.dataset.card);
      close();
    });
    /* a card read: "is it 5♥?", confirmed in one more tap or corrected with the picker; a card
       not read: the picker */
    var tapCorner = ask;
    $('learn-corners').addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-id]');
      if (!b || !state) return;
      var corner = state.corners.filter(function (c) { return c.id === b.dataset.id; })[0];
      if (corner) tapCorner(corner);
    });
    $('learn-all').addEventListener('click', function () {
      call('POST', '/api/camera/corners/read', null, function (answer) {
        note(t('camera.learn.named_all', { n: answer.named.length }));
      });
    });
    var inside = function (quad, x, y) {
      var hit = false;
      for (var i = 0, j = quad.length - 1; i < quad.length; j = i++) {
        var xi = quad[i][0], yi = quad[i][1], xj = quad[j][0], yj = quad[j][1];
        if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) hit = !hit;
      }
      return hit;
    };
    /* a tap on the picture: the outlined card under it whose corner is nearest */
    canvas.addEventListener('click', function (ev) {
      if (!state) return;
      var r = canvas.getBoundingClientRect();
      var x = (ev.clientX - r.left) / r.width, y = (ev.clientY - r.top) / r.height;
      var best = null, bestD = Infinity;
      state.corners.forEach(function (c) {
        var d = Math.hypot((c.center[0] - x) * r.width, (c.center[1] - y) * r.height);
        if ((inside(c.quad, x, y) || d < 40) && d < bestD) { best = c; bestD = d; }
      });
      if (best) tapCorner(best);
    });
    var label = function (c) {
      if (c.state === 'unread') return '?';
      return S.cardLabel(c.card) + (c.learned ? ' ✓' : ' ?');
    };
    var draw = function () {
      if (!state || !img.naturalWidth) return;
      canvas.width = img.clientWidth; canvas.height = img.clientHeight;
      var g = canvas.getContext('2d'), w = canvas.width, h = canvas.height;
      g.clearRect(0, 0, w, h);
      g.font = 'bold 18px sans-serif';
      var colour = function (c) {
        return asking && asking.id === c.id ? '#ffd400' : c.learned ? '#2fd36a' : c.state === 'unread' ? '#ffffff' : '#4fd1e8';
      };
      state.corners.forEach(function (c) {
        g.strokeStyle = colour(c); g.lineWidth = asking && asking.id === c.id ? 5 : 3;
        g.setLineDash(c.state === 'unread' ? [8, 6] : []);
        g.beginPath();
        c.quad.forEach(function (p, i) { if (i) g.lineTo(p[0] * w, p[1] * h); else g.moveTo(p[0] * w, p[1] * h); });
        g.closePath(); g.stroke();
      });
      g.setLineDash([]);
      /* each name just above its corner, moved a line where it would cover another */
      var placed = [];
      state.corners.forEach(function (c) {
        var text = label(c), box = window.StudLabels.box(g, text, c.center, w, h, placed);
        placed.push(box);
        g.fillStyle = 'rgba(8, 12, 18, 0.85)'; g.fillRect(box[0], box[1], box[2], box[3]);
        g.fillStyle = colour(c); g.fillText(text, box[0] + 4, box[1] + box[3] - 6);
      });
    };
    var render = function () {
      var deck = state.deck;
      $('learn-deck').textContent = deck ? t('camera.learn.deck', { name: deck.name }) + ' · ' + counts(deck)
        : t('camera.learn.no_deck');
      var sure = state.corners.filter(function (c) {
        return c.state === 'read' && !c.learned && c.confidence >= state.settings.min_confidence;
      }).length;
      $('learn-all').textContent = t('camera.learn.all', { n: sure });
      $('learn-all').disabled = sure === 0;
      $('learn-all').hidden = sure === 0;
      var key = JSON.stringify(state.corners);
      if (key !== render.shown) {
        render.shown = key;
        $('learn-corners').innerHTML = state.corners.map(function (c) {
          return '<button type="button" class="btn corner ' + esc(c.state) + (c.learned ? ' learned' : '') +
            '" data-id="' + esc(c.id) + '" data-state="' + esc(c.state) + '" data-card="' + esc(c.card || '') +
            '" data-learned="' + (c.learned ? '1' : '0') + '" data-testid="learn-corner">' + esc(label(c)) + '</button>';
        }).join('');
        draw();
      }
    };
    var reload = function () {
      if (reload.busy || document.hidden) return;
      reload.busy = true;
      var next = new Image();
      next.onload = function () {
        reload.busy = false; img.src = next.src;
        $('camera-noframe').hidden = true; canvas.hidden = false;
      };
      next.onerror = function () {
        reload.busy = false;
        if (!img.getAttribute('src')) { $('camera-noframe').hidden = false; canvas.hidden = true; }
      };
      next.src = learn.dataset.snapshot + '?t=' + Date.now();
    };
    img.addEventListener('load', draw);
    window.addEventListener('resize', draw);
    reload();
    setInterval(reload, 1000);
    var socket = io({ auth: { role: 'dealer', lang: lang }, transports: ['websocket', 'polling'],
      reconnectionDelay: 500, reconnectionDelayMax: 3000 });
    var apply = function (st) { if (st && st.ok !== false && st.corners) { state = st; render(); } };
    socket.on('connect', function () { socket.emit('camera', null, apply); });
    socket.on('camera', apply);
  }

  /* ---- /camera/decks: the learned decks ---- */
  var decks = $('decks-app');
  if (decks) {
    var armed = null;
    var list = function (answer) {
      $('deck-list').innerHTML = answer.decks.length ? answer.decks.map(function (d) {
        return '<li class="deck" data-key="' + esc(d.key) + '" data-testid="deck">' +
          '<span class="deck-name">' + esc(d.name) + '</span>' +
          '<span class="deck-counts" data-testid="deck-counts">' + esc(counts(d)) + '</span>' +
          (d.table ? '<strong class="deck-table" data-testid="deck-table">' + esc(t('camera.decks.played')) + '</strong>'
            : '<button type="button" class="btn" data-act="table" data-testid="deck-choose">' + esc(t('camera.decks.play')) + '</button>') +
          '<a class="btn btn-ghost" href="/camera/decks/' + encodeURIComponent(d.key) + '" data-testid="deck-examples">' +
          esc(t('camera.decks.examples')) + '</a>' +
          '<button type="button" class="btn btn-danger" data-act="delete" data-testid="deck-delete">' + esc(t('camera.decks.delete')) + '</button></li>';
      }).join('') : '<li class="muted">' + esc(t('camera.decks.none')) + '</li>';
    };
    var refresh = function () { call('GET', '/api/camera/decks', null, list); };
    refresh();
    $('deck-new').addEventListener('submit', function (ev) {
      ev.preventDefault();
      call('POST', '/api/camera/decks', { name: $('deck-name').value }, function () {
        window.location.href = decks.dataset.learn;
      });
    });
    $('deck-list').addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-act]');
      if (!b) return;
      var key = b.closest('[data-key]').dataset.key;
      if (b.dataset.act === 'table') call('POST', '/api/camera/decks/' + encodeURIComponent(key) + '/table', null, list);
      else if (armed === b) {  /* deleting asks twice */
        armed = null;
        call('DELETE', '/api/camera/decks/' + encodeURIComponent(key), null, function (answer) {
          list(answer); note(t('camera.decks.deleted'));
        });
      } else {
        armed = b; b.textContent = t('camera.decks.delete_sure');
        setTimeout(function () { if (armed === b) { armed = null; b.textContent = t('camera.decks.delete'); } }, 4000);
      }
    });
  }

  /* ---- /camera/decks/<key>: a deck's examples ---- */
  var one = $('deck-app');
  if (one) {
    var key = encodeURIComponent(one.dataset.key);
    var show = function (answer) {
      var c = answer.counts, ranks = Object.keys(c.ranks).length, suits = Object.keys(c.suits).length;
      $('deck-counts').textContent = counts({ examples: c.examples, ranks: ranks, ranks_all: 13, suits: suits, suits_all: 4 });
      var html = '', missing = [];
      S.SUITS.forEach(function (suit) {
        S.RANKS.forEach(function (rank) {
          var card = rank + suit, examples = answer.cards[card] || [];
          if (!examples.length) { missing.push(S.cardLabel(card)); return; }
          html += '<section class="deck-card" data-card="' + card + '" data-testid="deck-card"><h2 class="s-' + suit + '">' +
            esc(S.cardLabel(card)) + ' <span class="muted">×' + examples.length + '</span></h2><div class="thumbs">' +
            examples.map(function (e) {
              return '<figure data-example="' + esc(e.id) + '"><img alt="' + esc(S.cardLabel(card)) + '" src="/camera/decks/' + key +
                '/examples/' + encodeURIComponent(e.id) + '.png"><figcaption>' + esc(source(e.source)) + '</figcaption>' +
                '<button type="button" class="btn btn-ghost" data-remove="' + esc(e.id) + '" data-testid="example-remove">' +
                esc(t('camera.deck.remove')) + '</button></figure>';
            }).join('') + '</div></section>';
        });
      });
      $('deck-examples').innerHTML = html;
      $('deck-missing').textContent = missing.length ? t('camera.deck.missing', { cards: missing.join(' ') }) : '';
    };
    var load = function () { call('GET', '/api/camera/decks/' + key, null, show); };
    load();
    $('deck-examples').addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-remove]');
      if (!b) return;
      b.disabled = true;
      call('DELETE', '/api/camera/decks/' + key + '/examples/' + encodeURIComponent(b.dataset.remove), null, function () {
        note(t('camera.deck.removed')); load();
      });
    });
  }
})();
