/* hexclass: the typesetter of a page that shows no mathematics (index.html.j2).
   Voilà typesets every page at start-up, and its bundled MathJax is about 800 KB of
   JavaScript to load and run before the page's widgets are built; a page whose notebook
   says "hexclass": {"math": false} gets this stand-in instead, which typesets nothing. */
window.MathJax = {
  Hub: {
    Config: function () {},
    Configured: function () {},
    Queue: function () {},
    Register: { StartupHook: function () {} },
  },
  Ajax: {},
  InputJax: { TeX: { resetEquationNumbers: function () {} } },
};
