"""A small ResNet whose convolutions are linalg.generic ops: the examples'
CNN for compile time and convolution speed (issue 6/8, bench/compile.sh).
Exported to examples/resnet-small.mlir by python/pp-import-torch as linalg
on tensors in training form (--train-mode: batch norm by each micro-batch's
statistics); the named convolutions are then generalized, the form JAX
lowers convolutions to (the commands are in that file's header).

28x28 single-channel images, 10 classes: a 3x3 stem of 16 channels, then
three stages of two basic blocks (3x3 convolution, batch norm, ReLU, 3x3
convolution, batch norm, residual, ReLU) at 16, 32 and 64 channels, the
last two stages halving the resolution with a strided first convolution
and a 1x1 strided projection on the residual: 15 convolutions, 15 batch
norms, global average pooling and a linear classifier."""

import torch.nn as nn


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU()
        self.project = None
        if stride != 1 or cin != cout:
            self.project = nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride, bias=False),
                nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        skip = x if self.project is None else self.project(x)
        return self.relu(y + skip)


class SmallResNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 16, 3, 1, 1, bias=False),
                                  nn.BatchNorm2d(16), nn.ReLU())
        blocks = []
        cin = 16
        for cout, stride in ((16, 1), (32, 2), (64, 2)):
            blocks += [BasicBlock(cin, cout, stride),
                       BasicBlock(cout, cout, 1)]
            cin = cout
        self.blocks = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.fc(self.pool(x).flatten(1))


def resnet_small():
    return SmallResNet()
