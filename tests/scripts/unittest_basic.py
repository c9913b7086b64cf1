# unittest: TestCase asserts and their messages, setUp/tearDown/setUpClass, skip, expectedFailure, subTest, TextTestRunner output, main() exit status
import unittest, sys

class TestMath(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        print("setUpClass")
    def setUp(self):
        self.x = 3
    def tearDown(self):
        print("tearDown", self._testMethodName)
    def test_add(self):
        """Adding works."""
        self.assertEqual(self.x + 1, 4)
    def test_fail(self):
        self.assertEqual(self.x, 5)
    def test_error(self):
        {}["k"]
    @unittest.skip("not now")
    def test_skip(self):
        pass
    @unittest.expectedFailure
    def test_xfail(self):
        self.assertTrue(False)
    def test_sub(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertLess(i, 2)
    def test_raises(self):
        with self.assertRaises(ValueError) as cm:
            int("x")
        print(cm.exception)
        self.assertRaises(TypeError, len, 5)
        self.assertAlmostEqual(0.1 + 0.2, 0.3)
        self.assertIn(1, [1, 2])
        self.assertIsNone(None)
        self.assertIsInstance(1, int)

class TestMsgs(unittest.TestCase):
    def test_msgs(self):
        checks = [
            lambda: self.assertEqual(1, 2, "custom"),
            lambda: self.assertTrue(0),
            lambda: self.assertFalse([1]),
            lambda: self.assertNotEqual(1, 1),
            lambda: self.assertIs(1, None),
            lambda: self.assertIsNot(None, None),
            lambda: self.assertIsNone(3),
            lambda: self.assertIsNotNone(None),
            lambda: self.assertIn(5, [1, 2]),
            lambda: self.assertNotIn(1, [1, 2]),
            lambda: self.assertIsInstance(1, str),
            lambda: self.assertNotIsInstance(1, int),
            lambda: self.assertAlmostEqual(1.0, 1.1),
            lambda: self.assertAlmostEqual(1.0, 1.1, delta=0.01),
            lambda: self.assertAlmostEqual(1.0, 1.1, places=3),
            lambda: self.assertNotAlmostEqual(1.0, 1.0),
            lambda: self.assertGreater(1, 2),
            lambda: self.assertGreaterEqual(1, 2),
            lambda: self.assertLess(2, 1),
            lambda: self.assertLessEqual(2, 1),
            lambda: self.assertEqual({1, 2}, {1, 3}),
            lambda: self.assertCountEqual([1, 1, 2], [1, 2, 2]),
            lambda: self.assertListEqual([1], (1,)),
            lambda: self.assertEqual(1, 1.5, msg="long " * 30),
            lambda: self.assertWarns(UserWarning, lambda: None),
            lambda: self.assertRaises(ValueError, int, "1"),
            lambda: self.assertRaisesRegex(ValueError, "abc", int, "x"),
            lambda: self.assertRegex("hello", "xyz"),
            lambda: self.fail("boom"),
        ]
        for c in checks:
            try:
                c()
                print("no failure")
            except AssertionError as e:
                print(repr(str(e)))

if __name__ == "__main__":
    import io, re
    buf = io.StringIO()
    r = unittest.TextTestRunner(stream=buf, verbosity=2).run(unittest.TestLoader().loadTestsFromTestCase(TestMath))
    print(re.sub(r"in \d+\.\d+s", "in Xs", buf.getvalue()).replace(__file__, "FILE"))
    print(r, r.wasSuccessful(), len(r.failures), len(r.errors), len(r.skipped))
    unittest.main(verbosity=1, exit=False, argv=["x", "TestMsgs"])
    unittest.main()
