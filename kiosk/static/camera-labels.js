/* Names drawn on the camera's picture (kiosk/static/camera.js, camera-deck.js). */
(function (global) {
  'use strict';
  /* A card's name on the picture: just above its index corner, inside the picture, and moved a
     line up or down (up first), as little as it can be, where it would cover a name already
     placed; on a fan the names of its cards would otherwise be drawn over one another. */
  var LABEL_H = 24, LABEL_TRIES = 9;
  function box(g, text, corner, w, h, placed) {
    var bw = Math.ceil(g.measureText(text).width) + 8;
    var x = Math.max(0, Math.min(corner[0] * w, w - bw)), top = corner[1] * h - LABEL_H - 2;
    function at(k) {
      var dy = (k % 2 ? -1 : 1) * Math.ceil(k / 2) * LABEL_H;
      return [x, Math.max(0, Math.min(top + dy, h - LABEL_H)), bw, LABEL_H];
    }
    function free(b) {
      return placed.every(function (p) {
        return b[0] >= p[0] + p[2] || p[0] >= b[0] + b[2] || b[1] >= p[1] + p[3] || p[1] >= b[1] + b[3];
      });
    }
    for (var k = 0; k < LABEL_TRIES; k++) if (free(at(k))) return at(k);
    return at(0);
  }
  global.StudLabels = { box: box, height: LABEL_H };
})(window);
