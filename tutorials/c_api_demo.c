/*
 * c_api_demo.c — a first lesson in nnscope's C library, and what `make run`
 * shows until the REPL lands: a seeded two-layer network, one forward pass,
 * one backward pass, and the tensors PyTorch would print for the same steps.
 *
 * Its twin, c_api_demo.py, does the same in PyTorch; `make test` checks that
 * this program prints exactly c_api_demo.expected (made by the twin).
 */
#include <stdio.h>
#include <stdlib.h>

#include "nn.h"

/* Prints repr(t) the way print(t) does in Python. */
static void show(const char *label, nn_tensor *t)
{
    char *s = nn_tensor_repr(t);
    if (!s) {
        fprintf(stderr, "%s: %s: %s\n", label, nn_error_kind_name(nn_error_current()), nn_error_message());
        exit(1);
    }
    printf("%s\n%s\n", label, s);
    nn_free(s);
}

/* Stops the demo with the error, as an uncaught Python exception would. */
static void *check(void *p)
{
    if (!p) {
        fprintf(stderr, "%s: %s\n", nn_error_kind_name(nn_error_current()), nn_error_message());
        exit(1);
    }
    return p;
}

int main(void)
{
    nn_generator_seed(nn_default_generator(), 0);            /* torch.manual_seed(0) */
    nn_tensor *x = check(nn_randn(2, (int64_t[]){4, 3}, NN_FLOAT32));
    nn_tensor *w1 = check(nn_randn(2, (int64_t[]){3, 5}, NN_FLOAT32));
    nn_tensor *w2 = check(nn_randn(2, (int64_t[]){5, 1}, NN_FLOAT32));
    nn_tensor *target = check(nn_ones(2, (int64_t[]){4, 1}, NN_FLOAT32));
    nn_set_requires_grad(w1, true);
    nn_set_requires_grad(w2, true);
    show("x =", x);

    /* h = gelu(x @ w1, approximate='tanh'); y = h @ w2 */
    nn_tensor *xw = check(nn_matmul(x, w1));
    nn_tensor *h = check(nn_gelu(xw, NN_GELU_TANH));
    nn_tensor *y = check(nn_matmul(h, w2));
    show("y =", y);

    nn_tensor *loss = check(nn_mse_loss(y, target, NN_REDUCTION_MEAN));
    show("loss =", loss);
    if (nn_backward(loss, NULL, false, false) < 0) check(NULL);
    show("w1.grad =", w1->grad);
    show("w2.grad =", w2->grad);

    nn_tensor *probs = check(nn_softmax(y, 0));
    show("softmax(y, dim=0) =", probs);

    nn_tensor *all[] = {x, w1, w2, target, xw, h, y, loss, probs};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) NN_RELEASE(all[i]);
    return 0;
}
